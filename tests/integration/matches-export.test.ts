import { parse } from 'csv-parse/sync';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createItem, createMatch, createMonitor } from '../support/factories.ts';
import { apiErrorOf, startTestApp, type TestApp } from '../support/test-app.ts';

// GET /api/matches/export?format=csv: every match of the feed's filters, streamed page by page.
describe('CSV export', () => {
  let app: TestApp;
  let token: string;
  let userId: string;
  beforeAll(async () => {
    app = await startTestApp();
    const user = await app.signedInUser();
    token = user.token;
    userId = user.sub;
  });
  afterAll(() => app.close());

  test('10,000 matches arrive streamed in many chunks, read back whole by a CSV parser', async () => {
    const monitor = await createMonitor(app.database.db, { userId });
    const tricky = [
      '=HYPERLINK("http://evil.example","click")',
      '+SUM(A1:A2)',
      '-2+3',
      '@cmd',
      'commas, "quotes" and\na new line',
    ];
    for (const title of tricky) {
      const item = await createItem(app.database.db, { title });
      await createMatch(app.database.db, { monitor, item, title, snippet: title });
    }
    await app.database.db.execute(sql`
      insert into matches (user_id, monitor_id, source, external_id, kind, title, snippet,
        highlights, permalink, author, item_created_at, search)
      select ${userId}, ${monitor.id}, 'hackernews', 'bulk' || g, 'post', 'Post ' || g,
        'snippet ' || g, '[]'::jsonb, 'https://news.ycombinator.com/item?id=' || g, 'pg',
        now() - g * interval '1 second', ''::tsvector
      from generate_series(1, ${10_000 - tricky.length}) g`);

    const response = await app.api(`/api/matches/export?format=csv&monitorId=${monitor.id}`, {
      token,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(response.headers.get('content-disposition')).toMatch(/attachment/);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const chunks: Uint8Array[] = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
    }
    // One page (100 matches) is read and written at a time: the answer comes in many chunks,
    // the first of them a few pages, never the whole export (the network may join pages).
    expect(chunks.length).toBeGreaterThanOrEqual(10);
    const firstRows = new TextDecoder().decode(chunks[0]).split('\r\n').length;
    expect(firstRows).toBeLessThan(2_000);
    const text = Buffer.concat(chunks).toString('utf8');
    const rows = parse(text, { columns: true }) as Array<Record<string, string>>;
    expect(rows).toHaveLength(10_000);
    expect(Object.keys(rows[0] ?? {})).toEqual([
      'id',
      'matchedAt',
      'itemCreatedAt',
      'source',
      'kind',
      'community',
      'title',
      'author',
      'snippet',
      'permalink',
      'url',
      'intents',
      'sentiment',
      'language',
      'monitorId',
      'read',
      'rating',
      'relevance',
    ]);
    expect(new Set(rows.map((row) => row.id)).size).toBe(10_000);
    const titles = rows.map((row) => row.title ?? '');
    for (const title of tricky.slice(0, 4)) expect(titles).toContain(`'${title}`);
    expect(titles).toContain(tricky[4]);
    expect(titles.filter((title) => /^[=+\-@]/.test(title))).toEqual([]);
  });

  test('the feed’s filters apply; bad input is a 400; another user’s matches never appear', async () => {
    const mine = await createMonitor(app.database.db, { userId });
    const item = await createItem(app.database.db, { title: 'Only this one' });
    await createMatch(app.database.db, { monitor: mine, item });
    const other = await app.signedInUser();
    const theirs = await createMonitor(app.database.db, { userId: other.sub });
    await createMatch(app.database.db, {
      monitor: theirs,
      item: await createItem(app.database.db),
    });

    const response = await app.api(`/api/matches/export?format=csv&monitorId=${mine.id}`, {
      token,
    });
    const rows = parse(await response.text(), { columns: true }) as Array<Record<string, string>>;
    expect(rows.map((row) => row.title)).toEqual(['Only this one']);
    const foreign = await app.api(`/api/matches/export?format=csv&monitorId=${theirs.id}`, {
      token,
    });
    expect(parse(await foreign.text(), { columns: true })).toEqual([]);

    const bad = await app.api('/api/matches/export?format=xlsx', { token });
    expect(bad.status).toBe(400);
    expect(await apiErrorOf(bad)).toMatchObject({ code: 'VALIDATION_FAILED' });
  });
});
