import fc from 'fast-check';
import { Parser } from 'htmlparser2';
import { expect, test } from 'vitest';
import type { Match } from '../shared/match.ts';
import { alertSubject, renderAlertEmail } from './alert-email.ts';

const monitor = (id: string, query: string, count: number, name = '') => ({
  id,
  name,
  query,
  count,
});

test('the subject counts the matches and names the monitors, most matches first', () => {
  expect(alertSubject(1, [monitor('a', 'pglite', 1)])).toBe('1 new mention of “pglite”');
  expect(alertSubject(3, [monitor('a', 'pglite', 3)])).toBe('3 new mentions of “pglite”');
  expect(alertSubject(5, [monitor('a', 'rust', 1), monitor('b', 'zig', 4, 'Zig watch')])).toBe(
    '5 new mentions of “Zig watch” and “rust”',
  );
  expect(
    alertSubject(9, [
      monitor('a', 'a', 3),
      monitor('b', 'b', 4),
      monitor('c', 'c', 1),
      monitor('d', 'd', 1),
    ]),
  ).toBe('9 new mentions of “b”, “a” and 2 other monitors');
});

const match = (fields: Partial<Match>): Match => ({
  id: '1',
  monitorId: 'a',
  source: 'reddit',
  kind: 'comment',
  title: null,
  titleHighlights: [],
  threadTitle: null,
  threadId: null,
  intents: [],
  sentiment: null,
  language: null,
  signalsCorrected: false,
  snippet: 'I <3 pglite & "friends"',
  highlights: [[5, 11]],
  hitFields: ['body'],
  url: null,
  permalink: 'https://www.reddit.com/r/x/comments/1/y/z/',
  author: 'ada',
  community: 'PostgreSQL',
  itemCreatedAt: '2026-06-10T10:00:00.000Z',
  matchedAt: '2026-06-10T10:00:01.000Z',
  read: false,
  rating: null,
  relevance: null,
  relevanceReasons: [],
  ...fields,
});

const links = {
  alerts: 'https://e.example/dashboard/alerts',
  settings: 'https://e.example/dashboard/settings',
  unsubscribe: 'https://e.example/unsubscribe?token=t',
};

test('post text is escaped, hits are marked, unsafe links are dropped', () => {
  const email = renderAlertEmail({
    timeZone: 'Asia/Tokyo',
    monitors: [monitor('a', 'pglite', 1)],
    listed: [match({ url: 'javascript:alert(1)' })],
    total: 1,
    capReached: null,
    links,
  });
  expect(email.html).toContain('I &lt;3 <mark>pglite</mark> &amp; &quot;friends&quot;');
  expect(email.html).not.toContain('javascript:');
  expect(email.html).toContain('Reddit · r/PostgreSQL · comment · by ada · 10 Jun, 19:00');
  expect(email.text).toContain('I <3 *pglite* & "friends"');
  expect(email.text).toContain(
    'Unsubscribe from alert emails: https://e.example/unsubscribe?token=t',
  );
});

test('a highlight outside the snippet is ignored rather than breaking the text', () => {
  const email = renderAlertEmail({
    timeZone: 'UTC',
    monitors: [monitor('a', 'pglite', 1)],
    listed: [
      match({
        highlights: [
          [5, 11],
          [8, 10],
          [40, 50],
        ],
      }),
    ],
    total: 1,
    capReached: null,
    links,
  });
  expect(email.text).toContain('I <3 *pglite* & "friends"');
});

test("an author's name with a line break stays on its line of the plain-text part", () => {
  const email = renderAlertEmail({
    timeZone: 'UTC',
    monitors: [monitor('a', 'pglite', 1)],
    listed: [match({ author: 'ada\r\n* Fake entry\u2028https://evil.example' })],
    total: 1,
    capReached: null,
    links,
  });
  const meta = email.text.split('\n').find((line) => line.includes('ada'));
  expect(meta).toBe(
    '  Reddit · r/PostgreSQL · comment · ada * Fake entry https://evil.example · 10 Jun, 10:00 · hit in the body',
  );
  expect(email.text.split('\n').filter((line) => line.startsWith('* '))).toHaveLength(1);
});

test('a comment is named by its thread; an item of two monitors is one entry naming both', () => {
  const comment = match({ threadTitle: 'PGlite 1.0', id: '2' });
  const email = renderAlertEmail({
    timeZone: 'UTC',
    monitors: [monitor('a', 'pglite', 1), monitor('b', 'friends', 1)],
    listed: [comment, { ...comment, id: '3', monitorId: 'b', highlights: [[15, 22]] }],
    total: 2,
    capReached: null,
    links,
  });
  expect(email.text.split('\n').filter((line) => line.startsWith('* '))).toEqual([
    '* on: PGlite 1.0',
  ]);
  expect(email.text).toContain('  Caught by “pglite” and “friends”\n');
  expect(email.text).toContain('I <3 *pglite* & "*friends*"');
  expect(email.html.split('class="title"')).toHaveLength(2);
  expect(email.html).toContain(
    '<p class="title"><a href="https://www.reddit.com/r/x/comments/1/y/z/">on: PGlite 1.0</a></p>',
  );
  expect(email.html).toContain('Caught by “pglite” and “friends”');
});

test('a hit in the title is marked there, and a post without a body has no snippet', () => {
  const email = renderAlertEmail({
    timeZone: 'UTC',
    monitors: [monitor('a', 'pglite', 1)],
    listed: [
      match({
        kind: 'post',
        title: 'Show HN: PGlite <3',
        titleHighlights: [[9, 15]],
        snippet: '',
        highlights: [],
        hitFields: ['title'],
      }),
    ],
    total: 1,
    capReached: null,
    links,
  });
  expect(email.text).toContain(
    '* Show HN: *PGlite* <3\n  Reddit · r/PostgreSQL · ada · 10 Jun, 10:00 · hit in the title\n  https://',
  );
  expect(email.html).toContain('>Show HN: <mark>PGlite</mark> &lt;3</a>');
  expect(email.html).not.toContain('class="snippet"');
});

test('whatever a post says, the HTML holds it as text: no tag of its own, every character kept', () => {
  // Strings made of markup's own characters, tags and entities among them.
  const hostile = fc
    .array(
      fc.constantFrom(
        '<',
        '>',
        '&',
        '"',
        "'",
        '<script>alert(1)</script>',
        '&amp;',
        '<b>',
        'x',
        ' ',
      ),
      { minLength: 1, maxLength: 12 },
    )
    .map((parts) => `${parts.join('')}z`);
  fc.assert(
    fc.property(hostile, hostile, hostile, hostile, (title, snippet, author, name) => {
      const email = renderAlertEmail({
        timeZone: 'UTC',
        monitors: [monitor('a', 'z', 1, name)],
        listed: [
          match({ kind: 'post', title, snippet, author, highlights: [], titleHighlights: [] }),
        ],
        total: 1,
        capReached: null,
        links,
      });
      const tags = new Set<string>();
      const texts: string[] = [];
      const parser = new Parser(
        {
          onopentagname: (tag) => tags.add(tag),
          ontext: (text) => texts.push(text),
        },
        { decodeEntities: true },
      );
      parser.end(email.html);
      expect([...tags].filter((tag) => !EMAIL_TAGS.has(tag))).toEqual([]);
      const text = texts.join('');
      for (const value of [title, snippet, author, name]) expect(text).toContain(value.trim());
    }),
    { numRuns: 200 },
  );
});

/** The elements the alert email is made of; a post's text can add none. */
const EMAIL_TAGS = new Set([
  'html',
  'head',
  'meta',
  'title',
  'style',
  'body',
  'div',
  'p',
  'h1',
  'h2',
  'a',
  'span',
  'mark',
]);
