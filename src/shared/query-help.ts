// The query language as the app's help shows it (docs/query-language.md says the same).

import { INTENTS, SENTIMENTS } from './signals.ts';
import { SOURCE_NAMES } from './sources.ts';

export interface QueryHelpRow {
  readonly syntax: string;
  readonly meaning: string;
  readonly example: string;
}

export const QUERY_HELP: readonly QueryHelpRow[] = [
  {
    syntax: 'word',
    meaning:
      'The whole word, in any case, accents ignored. It matches “Rust’s” and “RUST”, not “trust” or “rusty”.',
    example: 'rust',
  },
  {
    syntax: '"two words"',
    meaning: 'These words next to each other, in this order; punctuation between them is ignored.',
    example: '"open source"',
  },
  {
    syntax: 'word word',
    meaning: 'Both words, anywhere in the item.',
    example: 'pglite vector',
  },
  {
    syntax: 'word OR word',
    meaning:
      'Either word. OR binds closer than the space: rust async OR await means rust and (async or await).',
    example: 'postgres OR mysql',
  },
  {
    syntax: '-word',
    meaning: 'Leaves out items with this word (or phrase, or group in brackets).',
    example: 'rust -game',
  },
  {
    syntax: 'word*',
    meaning: 'Any word starting with these letters (at least 3 of them).',
    example: 'rust*',
  },
  {
    syntax: '( … )',
    meaning: 'Groups words, to combine them with OR or leave them out together.',
    example: 'rust (async OR tokio)',
  },
  {
    syntax: 'node.js  c++  c#  .net  $tsla',
    meaning:
      'A word written with punctuation matches exactly that: c# finds “C#”, never a lone “c”.',
    example: 'c#',
  },
  {
    syntax: 'site:name',
    meaning: `Only items from this site: ${SOURCE_NAMES.slice(0, -1).join(', ')} or ${SOURCE_NAMES.at(-1)}.`,
    example: 'site:hackernews dropbox',
  },
  {
    syntax: 'subreddit:name  r/name',
    meaning:
      'Only this subreddit (or DEV or Stack Overflow tag: r/rust also finds DEV posts and Stack Overflow questions tagged rust; add site:reddit for Reddit alone); -subreddit:name leaves one out.',
    example: 'r/rust async',
  },
  {
    syntax: 'repo:owner/name',
    meaning:
      'Only issues, pull requests and comments of this GitHub repository (Earshot then also reads its issues and comments directly); -repo:owner/name leaves it out.',
    example: 'repo:facebook/react hydration',
  },
  {
    syntax: 'author:name',
    meaning: 'Only posts and comments by this person; -author:name leaves them out.',
    example: 'author:pg',
  },
  {
    syntax: 'feed:"name"',
    meaning:
      'Only the feed or forum you added under this name (Settings → Sources); site:feeds is every feed you added.',
    example: 'feed:"Rust Blog" release',
  },
  {
    syntax: 'title:word',
    meaning: 'The word (or "phrase", or group) must be in the title.',
    example: 'title:"show hn"',
  },
  {
    syntax: 'intent:name',
    meaning: `Only items doing this, as Earshot read them: ${INTENTS.join(', ')}. A hint: many items have none. -intent:hiring leaves them out.`,
    example: 'stripe intent:complaint',
  },
  {
    syntax: 'sentiment:name',
    meaning: `Only items in this tone: ${SENTIMENTS.join(', ')} (English items only; a rough hint).`,
    example: 'acme sentiment:negative',
  },
  {
    syntax: 'lang:xx',
    meaning:
      'Only items in this language, by its two-letter code (en, de, fr, ja…); -lang:en leaves English out.',
    example: 'rust lang:de',
  },
];
