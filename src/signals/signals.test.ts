import { expect, test } from 'vitest';
import { classifyIntents, type IntentInput } from './intents.ts';
import { itemSignals } from './item-signals.ts';
import { languageOf } from './language.ts';
import { sentimentOf } from './sentiment.ts';

const post = (title: string, body = '', url: string | null = null): IntentInput => ({
  title,
  body,
  kind: 'post',
  url,
});
const comment = (body: string): IntentInput => ({ title: null, body, kind: 'comment' });

test.each([
  [post('Ask HN: How to deal with seasonal affective disorder?', 'Every winter'), ['question']],
  [post('Show HN: Pixibot – Slack bot that makes text in posted images searchable'), ['launch']],
  [post('Sniffnet: monitor your network traffic - New Release v1.1.0'), ['launch']],
  [post('Hyper 1.0.0'), ['launch']],
  [post('Justin.tv is looking for a Lead Flash Engineer!'), ['hiring']],
  [post('Acme (YC W20) Is Hiring a Senior Backend Engineer'), ['hiring']],
  [
    post('[Serious] What are some great apps for smartphones that people might not be aware of?'),
    ['question', 'recommendation'],
  ],
  [post('internet explorer or Google chrome which is better?'), ['question', 'comparison']],
  [post('Postgres vs MySQL for a small SaaS'), ['comparison']],
  [
    post('Looking for an alternative to Heroku', 'We are moving from Heroku to something cheaper.'),
    ['recommendation', 'comparison'],
  ],
  [comment('Opera is so bad we have a separate bug list just for it.'), ['complaint']],
  [comment('The app keeps crashing when I open settings. Really frustrated.'), ['complaint']],
  [comment('I really love how the admins explain what happened.'), ['praise']],
  [comment("That's a good idea, thank you"), ['praise']],
  [comment('Noticed any impact on battery?'), ['question']],
  [comment('The sync doesn’t work since the update.'), ['complaint']],
])('%o has the intents %o', (input, intents) => {
  expect(classifyIntents(input)).toEqual(intents);
});

test.each([
  // A link post's headline that asks is the article's, not the poster's question.
  post('What Makes a Senior Software Developer?', '', 'https://example.com/senior'),
  post('Decker Vs. Dracula: Behind The Truth', '', 'https://example.com/decker'),
  comment('There was enough for us to drink, thanks to a burst pipe.'),
  comment("My grandfather didn't work in the karma mines so I could lose it all."),
  comment('Read the part about throwing off the old guards if they do not work.'),
  comment('Cutting off the earlobes vs cutting off the entire ear is clearly worse.'),
  // Quoted lines say what someone else wrote.
  comment('> This is broken and I hate it\n\nWe fixed it yesterday.'),
])('%o has no intent', (input) => {
  expect(classifyIntents(input)).toEqual([]);
});

test('sentiment: clear tone either way, and matter-of-fact text is neutral', () => {
  expect(sentimentOf('I love it, this is great work!').sentiment).toBe('positive');
  expect(sentimentOf('This is terrible. I hate it and it keeps failing.').sentiment).toBe(
    'negative',
  );
  expect(sentimentOf('Function multi-versioning in GCC 6').sentiment).toBe('neutral');
});

test('language: ISO 639-1 codes, and null when there is too little to tell', () => {
  expect(languageOf('How do I configure the reverse proxy for this server?')).toBe('en');
  expect(
    languageOf("Il y a une instance pour les personnels de l'État qui vient de s'ouvrir."),
  ).toBe('fr');
  expect(languageOf('Ich habe heute ein Mitarbeitergespräch mit meinem Chef.')).toBe('de');
  expect(languageOf('Fascinating.')).toBeNull();
  expect(languageOf('👍 🎉 so good')).toBeNull();
});

test('an item’s signals: sentiment only for English; links and handles are not read', () => {
  expect(
    itemSignals({
      title: null,
      body: 'Hemos lanzado una base de datos pequeña, y nos encanta. https://example.com/hola',
      kind: 'comment',
    }),
  ).toEqual({ intents: [], language: 'es', sentiment: null });
  expect(
    itemSignals({
      title: 'Show HN: A tiny, wonderful search engine',
      body: 'I love it, it is awesome! https://example.com @someone #search',
      kind: 'post',
    }),
  ).toEqual({ intents: ['praise', 'launch'], language: 'en', sentiment: 'positive' });
});
