import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { normalisedItemSchema } from '../normalised-item.ts';
import { expandLinks, normaliseJetstreamEvent } from './normalise.ts';

const RECORDED = path.join(import.meta.dirname, '..', '..', '..', 'tests', 'fixtures', 'recorded');
const lines = (file: string): unknown[] =>
  readFileSync(path.join(RECORDED, file), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as unknown);
const JULY = lines('bluesky-jetstream-v1-2026-07-04.jsonl');
const GOLDEN = lines('bluesky-jetstream-v1-golden-2026-05-25.jsonl');

const itemOf = (raw: unknown) => {
  const result = normaliseJetstreamEvent(raw);
  if (result.status !== 'item') throw new Error(`skipped: ${result.detail}`);
  return result.item;
};

describe('Jetstream messages, as recorded', () => {
  test('of 152 events, the 17 post creates are items and everything else is skipped', () => {
    const results = JULY.map(normaliseJetstreamEvent);
    const items = results.flatMap((result) => (result.status === 'item' ? [result.item] : []));
    expect(items).toHaveLength(17);
    expect(items.filter((item) => item.kind === 'comment')).toHaveLength(8);
    const reasons = results.flatMap((result) =>
      result.status === 'skipped' ? [result.reason] : [],
    );
    expect(reasons.filter((reason) => reason === 'deleted')).toHaveLength(1);
    expect(reasons.filter((reason) => reason === 'invalid')).toEqual([]);
    for (const item of items) {
      expect(normalisedItemSchema.parse(item)).toEqual(item);
      expect(item.permalink).toBe(
        `https://bsky.app/profile/${item.author}/post/${item.externalId.split('/').at(-1)}`,
      );
    }
    expect(new Set(items.map((item) => item.externalId)).size).toBe(17);
  });

  test('a link post: the shortened link in the text expanded, the link as the URL', () => {
    const item = itemOf(JULY[1]);
    expect(item).toEqual({
      source: 'bluesky',
      externalId: 'at://did:plc:dclwtltrt2ggsryagfzk7dp4/app.bsky.feed.post/3mptbyoeyc22k',
      kind: 'post',
      title: null,
      body: 'https://www.youtube.com/watch?v=V5lDo-jw8mA',
      url: 'https://www.youtube.com/watch?v=V5lDo-jw8mA',
      permalink: 'https://bsky.app/profile/did:plc:dclwtltrt2ggsryagfzk7dp4/post/3mptbyoeyc22k',
      author: 'did:plc:dclwtltrt2ggsryagfzk7dp4',
      community: null,
      parentExternalId: null,
      threadTitle: null,
      createdAt: '2026-07-04T14:38:06.240Z',
    });
  });

  test('the Czech post: a facet after multi-byte text lands on the right bytes', () => {
    const raw = JULY.find((event) => JSON.stringify(event).includes('denikn.cz/2113523'));
    const item = itemOf(raw);
    expect(item.body.startsWith('https://')).toBe(true);
    expect(item.body).toContain('V souvislosti s politikou');
    expect(item.url).toMatch(/^https:\/\/denikn\.cz\//u);
  });

  test('the golden reply: a comment whose parent is the post it answers', () => {
    const raw = GOLDEN.find((event) => JSON.stringify(event).includes('Try RSV'));
    const item = itemOf(raw);
    expect(item.kind).toBe('comment');
    expect(item.parentExternalId).toMatch(/^at:\/\/did:[a-z]+:[^/]+\/app\.bsky\.feed\.post\/\w+$/u);
    expect(item.body).toBe('Try RSV for a good time !!');
  });
});

// Text with arbitrary link facets, the byte ranges computed from the pieces as a client does.
const linked = fc
  .array(
    fc.record({
      before: fc.string({ unit: 'grapheme', maxLength: 20 }),
      shown: fc.string({ minLength: 1, maxLength: 20 }),
      uri: fc.webUrl(),
    }),
    { maxLength: 4 },
  )
  .map((pieces) => {
    let text = '';
    const facets = pieces.map((piece) => {
      text += piece.before;
      const byteStart = Buffer.byteLength(text);
      text += piece.shown;
      return {
        index: { byteStart, byteEnd: Buffer.byteLength(text) },
        features: [{ $type: 'app.bsky.richtext.facet#link', uri: piece.uri }],
      };
    });
    return { text, facets, pieces };
  });

describe('Jetstream messages, any shape', () => {
  test('each link facet is replaced by its link, the rest kept; the first link is the URL', () => {
    fc.assert(
      fc.property(linked, ({ text, facets, pieces }) => {
        const expanded = expandLinks(text, facets);
        expect(expanded.text).toBe(pieces.map((piece) => piece.before + piece.uri).join(''));
        expect(expanded.firstLink).toBe(pieces[0]?.uri ?? null);
      }),
    );
  });

  test('facets out of range or malformed leave the text as written', () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.array(
          fc.oneof(fc.anything(), fc.record({ index: fc.anything(), features: fc.anything() })),
        ),
        fc.integer({ min: 1, max: 1000 }),
        (text, junk, beyond) => {
          const outside = {
            index: { byteStart: 0, byteEnd: Buffer.byteLength(text) + beyond },
            features: [{ $type: 'app.bsky.richtext.facet#link', uri: 'https://example.org/' }],
          };
          expect(expandLinks(text, [...junk, outside])).toEqual({ text, firstLink: null });
        },
      ),
    );
  });

  test('any event: an item that parses, or a typed skip, never a throw', () => {
    const event = fc.record(
      {
        did: fc.oneof(fc.constant('did:plc:abc123'), fc.string()),
        time_us: fc.oneof(fc.integer({ min: 0 }), fc.anything()),
        kind: fc.constantFrom('commit', 'identity', 'account', 'other'),
        commit: fc.record(
          {
            operation: fc.constantFrom('create', 'update', 'delete'),
            collection: fc.constantFrom('app.bsky.feed.post', 'app.bsky.feed.like'),
            rkey: fc.oneof(fc.constant('3mptbyoeyc22k'), fc.string()),
            record: fc.record(
              {
                text: fc.oneof(fc.string(), fc.anything()),
                createdAt: fc.oneof(
                  fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
                  fc.string(),
                ),
                facets: fc.anything(),
                reply: fc.anything(),
                embed: fc.anything(),
              },
              { requiredKeys: [] },
            ),
          },
          { requiredKeys: [] },
        ),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.oneof(event, fc.anything()), (raw) => {
        const result = normaliseJetstreamEvent(raw);
        if (result.status === 'item') {
          expect(normalisedItemSchema.parse(result.item)).toEqual(result.item);
          expect(result.item.externalId).toMatch(/^at:\/\/did:/u);
          expect(Number.isNaN(Date.parse(result.item.createdAt))).toBe(false);
        } else {
          expect(['invalid', 'unsupported-kind', 'deleted']).toContain(result.reason);
        }
      }),
    );
  });

  test('a post without createdAt takes its time from time_us', () => {
    const item = itemOf({
      did: 'did:plc:abc',
      time_us: 1_783_175_888_085_434,
      kind: 'commit',
      commit: {
        operation: 'create',
        collection: 'app.bsky.feed.post',
        rkey: 'r1',
        record: { text: 'hi' },
      },
    });
    expect(item.createdAt).toBe('2026-07-04T14:38:08.085Z');
  });
});
