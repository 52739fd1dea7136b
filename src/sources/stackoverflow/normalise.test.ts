import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { normalisedItemSchema } from '../normalised-item.ts';
import {
  normaliseStackExchangeRecord,
  STACKEXCHANGE_METHODS,
  type StackExchangeMethod,
  siteUrl,
} from './normalise.ts';
import { stackExchangeReplay } from './replay.ts';

// NOT recorded: the examples are built from the Stack Exchange API's reference documentation
// (tests/fixtures/reference/README.md, decision 0041).
const REFERENCE = path.join(
  import.meta.dirname,
  '..',
  '..',
  '..',
  'tests',
  'fixtures',
  'reference',
);
const examples = (method: StackExchangeMethod): unknown[] =>
  (
    JSON.parse(
      readFileSync(path.join(REFERENCE, `stackexchange-${method}-withbody.json`), 'utf8'),
    ) as { items: unknown[] }
  ).items;
const itemsOf = (method: StackExchangeMethod) =>
  examples(method).map((raw) => {
    const result = normaliseStackExchangeRecord('stackoverflow', method, raw);
    if (result.status !== 'item') throw new Error(`skipped: ${result.detail}`);
    return result.item;
  });

describe('Stack Exchange records, as the reference documents them (not recorded)', () => {
  test('a question: its title decoded, its HTML body to text, its first tag as community', () => {
    const [first, second] = itemsOf('questions');
    expect(first).toEqual({
      source: 'stackoverflow',
      externalId: 'stackoverflow/79830001',
      kind: 'post',
      title: 'LISTEN/NOTIFY stops after a pgbouncer restart',
      body: expect.stringMatching(
        /^My Node\.js worker uses LISTEN items_stored through pgbouncer\./u,
      ),
      url: null,
      permalink:
        'https://stackoverflow.com/questions/79830001/listen-notify-stops-after-a-pgbouncer-restart',
      author: 'Example Asker',
      community: 'postgresql',
      parentExternalId: null,
      threadTitle: null,
      createdAt: '2025-11-26T09:40:00.000Z',
    });
    expect(first?.body).toContain("client.on('notification', (msg) => console.log(msg.channel));");
    expect(first?.body).toContain('Is session pooling required for LISTEN?');
    expect(second?.title).toBe('Why does z.infer give "unknown" for a preprocessed schema?');
    expect(second?.author).toBe('René Dupont');
    expect(second?.body).toContain('- zod 4.1');
  });

  test('an answer is a comment on its question; a comment names its post, question or answer', () => {
    const [answer] = itemsOf('answers');
    expect(answer).toMatchObject({
      externalId: 'stackoverflow/79830007',
      kind: 'comment',
      parentExternalId: 'stackoverflow/79830001',
      permalink: 'https://stackoverflow.com/a/79830007',
      threadTitle: null,
      threadId: 'stackoverflow/79830001',
      author: 'pg_helper',
    });
    const comments = itemsOf('comments');
    expect(comments.map((comment) => [comment.externalId, comment.parentExternalId])).toEqual([
      ['stackoverflow/comment/139800001', 'stackoverflow/79830001'],
      ['stackoverflow/comment/139800004', 'stackoverflow/79830007'],
      ['stackoverflow/comment/139800009', 'stackoverflow/79830010'],
      ['stackoverflow/comment/139800013', 'stackoverflow/79830015'],
      ['stackoverflow/comment/139800020', 'stackoverflow/79830024'],
    ]);
    expect(comments[1]?.body).toBe('@pg_helper that was it, thanks — see the pool_mode docs.');
    expect(comments[1]?.permalink).toBe('https://stackoverflow.com/posts/comments/139800004');
    // A comment without its owner (a deleted account) keeps its words, without an author.
    expect(comments[4]?.author).toBeNull();
  });

  test('every example is an item of the one shape, with no markup or entity left', () => {
    for (const method of STACKEXCHANGE_METHODS) {
      for (const item of itemsOf(method)) {
        expect(normalisedItemSchema.parse(item)).toEqual(item);
        for (const text of [item.title ?? '', item.body, item.author ?? '']) {
          expect(text).not.toMatch(
            /<\/?(p|code|pre|a|ul|li|blockquote)\b|&(amp|lt|gt|quot|#\d+|mdash|nbsp);/iu,
          );
        }
      }
    }
    // Escaped angle brackets in the text are the asker's words, decoded.
    expect(itemsOf('questions')[3]?.body).toContain('Why <and how> do I sort numbers?');
  });

  test('a site other than Stack Overflow: its own address and ids', () => {
    expect(siteUrl('stackoverflow')).toBe('https://stackoverflow.com');
    expect(siteUrl('superuser')).toBe('https://superuser.com');
    expect(siteUrl('math')).toBe('https://math.stackexchange.com');
    expect(siteUrl('mathoverflow.net')).toBe('https://mathoverflow.net');
    const result = normaliseStackExchangeRecord('unix', 'answers', {
      answer_id: 5,
      question_id: 4,
      creation_date: 1_700_000_000,
      body: '<p>Use <code>find -print0</code>.</p>',
    });
    if (result.status !== 'item') throw new Error('skipped');
    expect(result.item).toMatchObject({
      externalId: 'unix/5',
      parentExternalId: 'unix/4',
      permalink: 'https://unix.stackexchange.com/a/5',
      body: 'Use find -print0.',
      author: null,
    });
  });

  test('the replay serves every example once, each with its own id, questions before their answers', () => {
    const records = stackExchangeReplay.load(path.join(REFERENCE, '..', 'recorded'));
    expect(records).toHaveLength(14);
    const ids = records.map((_, index) => stackExchangeReplay.externalId(records, index));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.indexOf('stackoverflow/79830001')).toBeLessThan(
      ids.indexOf('stackoverflow/79830007'),
    );
    const next = stackExchangeReplay.externalId(records, records.length + 3);
    expect(next).not.toBe(ids[3]);
    expect(stackExchangeReplay.indexOf(records, next)).toBe(records.length + 3);
    expect(records.every((record) => stackExchangeReplay.keeps(record))).toBe(true);
  });
});

describe('Stack Exchange records of any shape', () => {
  const html = fc.oneof(
    fc.string(),
    fc
      .array(
        fc.oneof(
          fc.string(),
          fc.constantFrom('<p>', '</p>', '<code>', '</code>', '&amp;', '&lt;', '&#39;', '<br>'),
        ),
      )
      .map((parts) => parts.join('')),
  );
  const owner = fc.option(
    fc.record(
      { display_name: html, user_type: fc.constantFrom('registered', 'does_not_exist') },
      { requiredKeys: [] },
    ),
    { nil: undefined },
  );
  const id = fc.integer({ min: 1, max: 2 ** 31 });
  const record = fc.record(
    {
      question_id: id,
      answer_id: id,
      comment_id: id,
      post_id: id,
      title: html,
      body: html,
      tags: fc.array(fc.stringMatching(/^[a-z0-9.+#-]{1,20}$/u), { maxLength: 5 }),
      owner,
      link: fc.webUrl(),
      creation_date: fc.integer({ min: 0, max: 4_000_000_000 }),
    },
    { requiredKeys: [] },
  );

  test('an item in the one shape, or a typed skip; never a throw; no tag left in the text', () => {
    fc.assert(
      fc.property(fc.constantFrom(...STACKEXCHANGE_METHODS), record, (method, raw) => {
        const result = normaliseStackExchangeRecord('stackoverflow', method, raw);
        if (result.status === 'skipped') {
          expect(result.reason).toBe('invalid');
          return;
        }
        expect(normalisedItemSchema.parse(result.item)).toEqual(result.item);
        expect(result.item.body).not.toMatch(/<(p|code|br)>/u);
        expect(result.item.title ?? '').not.toMatch(/\n/u);
        if (method !== 'questions') expect(result.item.parentExternalId).not.toBeNull();
      }),
    );
  });

  test('missing ids or dates, or not an object, are skipped as invalid', () => {
    for (const raw of [null, 42, 'x', {}, { question_id: 1, title: 't' }, { creation_date: 1 }]) {
      for (const method of STACKEXCHANGE_METHODS) {
        expect(normaliseStackExchangeRecord('stackoverflow', method, raw)).toMatchObject({
          status: 'skipped',
          reason: 'invalid',
        });
      }
    }
  });
});
