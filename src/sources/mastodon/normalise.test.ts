import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { normalisedItemSchema } from '../normalised-item.ts';
import { normaliseMastodonStatus } from './normalise.ts';
import { mastodonReplay } from './replay.ts';

const RECORDED = path.join(import.meta.dirname, '..', '..', '..', 'tests', 'fixtures', 'recorded');
const read = (file: string): unknown => JSON.parse(readFileSync(path.join(RECORDED, file), 'utf8'));
const INSTANCE = 'https://mastodon.social';

describe('Mastodon statuses, as recorded', () => {
  test('the 2016 public timeline: HTML to text, the boost skipped, replies as comments', () => {
    const timeline = read('mastodon-timelines-public-mastodonsocial-2016-10-20.json') as unknown[];
    const results = timeline.map((status) => normaliseMastodonStatus(INSTANCE, status));
    expect(results.filter((result) => result.status === 'skipped')).toEqual([
      { status: 'skipped', reason: 'unsupported-kind', detail: expect.stringMatching(/^boost /u) },
    ]);
    const first = results[0];
    if (first?.status !== 'item') throw new Error('not an item');
    expect(first.item).toEqual({
      source: 'mastodon',
      externalId: 'tag:quitter.no,2016-10-20:noticeId=2501910:objectType=note',
      kind: 'post',
      title: null,
      body: "♻@LondonRealTV @doctorow @margaretbadam …but there are alternatives, if someone's first choice isn't available.",
      url: null,
      permalink: 'https://quitter.no/notice/2501910',
      author: 'doctorow@quitter.no',
      community: null,
      parentExternalId: null,
      createdAt: '2016-10-20T16:16:53.000Z',
    });
    const items = results.flatMap((result) => (result.status === 'item' ? [result.item] : []));
    expect(items.filter((item) => item.kind === 'comment')).toHaveLength(2);
    for (const item of items) {
      expect(normalisedItemSchema.parse(item)).toEqual(item);
      expect(item.body).not.toMatch(/<[a-z/][^>]*>|&(amp|lt|gt|quot|#\d+);/iu);
    }
  });

  test('the 2022 streaming update: a reply on fosstodon.org, its mention not taken for a link', () => {
    const message = read('mastodon-streaming-ws-update-2022-08-30.json') as { payload: string };
    const result = normaliseMastodonStatus(INSTANCE, JSON.parse(message.payload));
    if (result.status !== 'item') throw new Error(`skipped: ${result.detail}`);
    expect(result.item).toMatchObject({
      kind: 'comment',
      title: null,
      url: null,
      author: 'tobtobxx@fosstodon.org',
      externalId: 'https://fosstodon.org/users/tobtobxx/statuses/108913983628474640',
      permalink: expect.stringMatching(/^https:\/\/fosstodon\.org\//u),
    });
    expect(result.item.body.length).toBeGreaterThan(10);
  });

  test('every recorded status the replay serves reads, and each keeps its uri as its id', () => {
    const records = mastodonReplay.load(RECORDED);
    expect(records.length).toBeGreaterThanOrEqual(40);
    const kept = records.filter((record) => mastodonReplay.keeps(record));
    expect(kept.length).toBe(records.length - 1);
    const ids = kept.map((record) => {
      const result = normaliseMastodonStatus(INSTANCE, record);
      return result.status === 'item' ? result.item.externalId : '';
    });
    expect(new Set(ids).size).toBe(kept.length);
  });
});

describe('Mastodon statuses, any shape', () => {
  const status = fc.record({
    id: fc.oneof(fc.nat().map(String), fc.nat()),
    created_at: fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
    in_reply_to_id: fc.option(fc.nat().map(String)),
    reblog: fc.constant(null),
    content: fc.string(),
    spoiler_text: fc.option(fc.string()),
    uri: fc.webUrl(),
    url: fc.option(fc.webUrl()),
    account: fc.record({ acct: fc.string({ minLength: 1 }) }),
  });

  test('an item in the one shape, HTML gone, a warning as a post’s title only', () => {
    fc.assert(
      fc.property(status, (raw) => {
        const result = normaliseMastodonStatus(INSTANCE, raw);
        if (result.status !== 'item') return;
        expect(normalisedItemSchema.parse(result.item)).toEqual(result.item);
        expect(result.item.kind).toBe(raw.in_reply_to_id === null ? 'post' : 'comment');
        if (result.item.kind === 'comment') expect(result.item.title).toBeNull();
        expect(result.item.externalId).toBe(raw.uri);
      }),
    );
  });

  test('a link in the content is the link post’s URL; mentions and hashtags are not', () => {
    fc.assert(
      fc.property(fc.webUrl({ withQueryParameters: true }), (link) => {
        const href = link.replaceAll('"', '%22').replaceAll('&', '&amp;');
        const content = `<p><span class="h-card"><a href="https://x.example/@ada" class="u-url mention">@ada</a></span> <a href="https://x.example/tags/rust" class="mention hashtag" rel="tag">#rust</a> see <a href="${href}" rel="nofollow">this</a></p>`;
        const result = normaliseMastodonStatus(INSTANCE, {
          id: '1',
          created_at: '2026-11-26T00:00:00Z',
          content,
          uri: 'https://x.example/users/ada/statuses/1',
          account: { acct: 'ada' },
        });
        if (result.status !== 'item') throw new Error(result.detail);
        expect(result.item.url).toBe(link.replaceAll('"', '%22'));
        expect(result.item.body).toBe('@ada #rust see this');
      }),
    );
  });

  test('missing fields skip the status with the field named, never throw', () => {
    for (const field of ['id', 'created_at', 'content', 'account']) {
      const raw: Record<string, unknown> = {
        id: '1',
        created_at: '2026-11-26T00:00:00Z',
        content: '<p>hi</p>',
        uri: 'https://x.example/1',
        account: { acct: 'ada' },
      };
      delete raw[field];
      const result = normaliseMastodonStatus(INSTANCE, raw);
      expect(result).toMatchObject({ status: 'skipped', reason: 'invalid' });
      if (result.status === 'skipped') expect(result.detail).toContain(field);
    }
    expect(normaliseMastodonStatus(INSTANCE, 'not a status')).toMatchObject({ status: 'skipped' });
  });
});
