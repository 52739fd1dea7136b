import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { matchPageSchema, matchStatsSchema } from '../../src/shared/match.ts';
import { monitorPreviewSchema, monitorSchema } from '../../src/shared/monitor.ts';
import { deliverItems, testItem } from '../support/feed.ts';
import { apiErrorOf, startTestApp, type TestApp } from '../support/test-app.ts';

// intent:, sentiment: and lang: through the API: a monitor's query, the preview and the feed's
// filters and search, on items stored without signals: the matcher and the preview compute them.
describe('item signals through the API', () => {
  let app: TestApp;
  let token: string;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    app = await startTestApp();
    const user = await app.createUser();
    token = (await app.signIn(user)).AccessToken;
    await app.api('/api/user', { token, method: 'POST', body: {} });
    for (const [name, query] of [
      ['english', 'kettle lang:en'],
      ['notHiring', 'kettle -intent:hiring'],
      ['questions', 'kettle intent:question'],
      ['angry', 'kettle sentiment:negative'],
    ]) {
      const response = await app.api('/api/monitors', {
        token,
        method: 'POST',
        body: { query, name },
      });
      expect(response.status, await response.clone().text()).toBe(201);
      ids[name as string] = monitorSchema.parse(await response.json()).id;
    }
    await deliverItems(app, [
      testItem({
        title: 'Ask HN: Which kettle should I buy for a small office?',
        body: 'We need something quiet that boils water quickly for about ten people.',
      }),
      testItem({
        title: 'Unser neuer Wasserkocher',
        body: 'Der kettle von gestern ist wirklich sehr laut und das Wasser schmeckt komisch.',
      }),
      testItem({
        title: 'Kettle Labs is hiring a firmware engineer',
        body: 'Join our team building the smartest kettle in the world, remote in Europe.',
      }),
      testItem({
        title: 'My awful kettle broke again',
        body: 'It is terrible. The lid is broken. I hate it.',
      }),
    ]);
  });
  afterAll(() => app.close());

  async function feed(query: string) {
    const response = await app.api(`/api/matches${query}`, { token });
    expect(response.status, await response.clone().text()).toBe(200);
    return matchPageSchema.parse(await response.json()).items;
  }
  const titlesOf = async (query: string) =>
    [...new Set((await feed(query)).map((match) => match.title))].sort();

  test('a monitor with lang:, intent: or sentiment: matches only the items that have it', async () => {
    const byMonitor = async (name: string) => titlesOf(`?monitorId=${ids[name]}`);
    expect(await byMonitor('english')).toEqual([
      'Ask HN: Which kettle should I buy for a small office?',
      'Kettle Labs is hiring a firmware engineer',
      'My awful kettle broke again',
    ]);
    expect(await byMonitor('notHiring')).toEqual([
      'Ask HN: Which kettle should I buy for a small office?',
      'My awful kettle broke again',
      'Unser neuer Wasserkocher',
    ]);
    expect(await byMonitor('questions')).toEqual([
      'Ask HN: Which kettle should I buy for a small office?',
    ]);
    expect(await byMonitor('angry')).toEqual(['My awful kettle broke again']);
    const [question] = await feed(`?monitorId=${ids.questions}`);
    expect(question).toMatchObject({
      intents: ['question', 'recommendation'],
      sentiment: 'neutral',
      language: 'en',
    });
  });

  test('the preview reads the stored items’ signals with the same matcher', async () => {
    const preview = async (query: string) => {
      const response = await app.api('/api/monitors/preview', {
        token,
        method: 'POST',
        body: { query },
      });
      expect(response.status, await response.clone().text()).toBe(200);
      return monitorPreviewSchema.parse(await response.json()).items.map((item) => item.title);
    };
    expect(await preview('kettle lang:de')).toEqual(['Unser neuer Wasserkocher']);
    expect(await preview('kettle intent:hiring')).toEqual([
      'Kettle Labs is hiring a firmware engineer',
    ]);
    expect((await preview('kettle -lang:en -sentiment:negative')).sort()).toEqual([
      'Unser neuer Wasserkocher',
    ]);
  });

  test('the feed filters by intent, sentiment and language, as parameters or typed in its search', async () => {
    const english = `&monitorId=${ids.notHiring}`;
    expect(await titlesOf(`?intent=question${english}`)).toEqual([
      'Ask HN: Which kettle should I buy for a small office?',
    ]);
    expect(await titlesOf(`?sentiment=negative${english}`)).toEqual([
      'My awful kettle broke again',
    ]);
    expect(await titlesOf(`?lang=DE${english}`)).toEqual(['Unser neuer Wasserkocher']);
    expect(await titlesOf(`?q=${encodeURIComponent('-lang:en kettle')}${english}`)).toEqual([
      'Unser neuer Wasserkocher',
    ]);
    expect(await titlesOf(`?q=${encodeURIComponent('intent:hiring')}`)).toEqual([
      'Kettle Labs is hiring a firmware engineer',
    ]);
    const csv = await app.api('/api/matches/export?format=csv&intent=hiring', { token });
    const rows = parse(await csv.text(), { columns: true }) as Record<string, string>[];
    expect(rows.map(({ title, intents, language }) => ({ title, intents, language }))).toEqual([
      { title: 'Kettle Labs is hiring a firmware engineer', intents: 'hiring', language: 'en' },
    ]);
    // Not a value a signal takes: searched as a word, which no item holds.
    expect(await titlesOf(`?q=${encodeURIComponent('intent:rant')}`)).toEqual([]);
    for (const [query, field] of [
      ['?intent=rant', 'intent'],
      ['?sentiment=angry', 'sentiment'],
      ['?lang=english', 'lang'],
    ]) {
      const response = await app.api(`/api/matches${query}`, { token });
      expect(response.status).toBe(400);
      expect(JSON.stringify(await apiErrorOf(response))).toContain(field);
    }
  });

  test('the stats split each day and monitor’s count by sentiment when asked', async () => {
    const stats = async (query: string) => {
      const response = await app.api(`/api/matches/stats${query}`, { token });
      expect(response.status, await response.clone().text()).toBe(200);
      return matchStatsSchema.parse(await response.json()).days;
    };
    const angry = (await stats('?days=2')).filter((row) => row.monitorId === ids.notHiring);
    expect(angry.map(({ count, sentiment }) => ({ count, sentiment }))).toEqual([
      { count: 3, sentiment: undefined },
    ]);
    const split = (await stats('?days=2&by=sentiment')).filter(
      (row) => row.monitorId === ids.notHiring,
    );
    expect(split.map(({ count, sentiment }) => ({ count, sentiment }))).toEqual([
      { count: 1, sentiment: 'negative' },
      { count: 1, sentiment: 'neutral' },
      // The German item: no sentiment is read for it.
      { count: 1, sentiment: null },
    ]);
    expect((await app.api('/api/matches/stats?by=tone', { token })).status).toBe(400);
  });

  test('a user corrects an alert’s hints: every match of the item, flagged, filtered as corrected', async () => {
    const question = (await feed(`?monitorId=${ids.questions}`))[0];
    const id = question?.id ?? '';
    expect(question?.signalsCorrected).toBe(false);
    const put = (matchId: string, body: unknown, as = token) =>
      app.api(`/api/matches/${matchId}/signals`, { token: as, method: 'PUT', body });
    const response = await put(id, { intents: ['complaint'], sentiment: 'negative' });
    expect(response.status, await response.clone().text()).toBe(200);
    expect(await response.json()).toMatchObject({
      id,
      intents: ['complaint'],
      sentiment: 'negative',
      language: 'en',
      signalsCorrected: true,
    });
    // Three monitors caught the item: one alert, corrected as one. The feed reads the
    // corrected JSON and filters on the new values.
    const ofItem = (await feed('')).filter((match) => match.title === question?.title);
    expect(ofItem).toHaveLength(3);
    for (const match of ofItem) {
      expect(match).toMatchObject({ intents: ['complaint'], signalsCorrected: true });
    }
    expect(await titlesOf('?intent=question')).toEqual([]);
    expect(await titlesOf('?intent=complaint')).toContain(question?.title);

    expect((await put(id, {})).status).toBe(400);
    expect((await put(id, { intents: ['rant'] })).status).toBe(400);
    expect((await put(id, { language: 'english' })).status).toBe(400);
    expect((await put('999999', { sentiment: null })).status).toBe(404);
    const stranger = await app.createUser();
    const theirs = (await app.signIn(stranger)).AccessToken;
    await app.api('/api/user', { token: theirs, method: 'POST', body: {} });
    const refused = await put(id, { sentiment: 'positive' }, theirs);
    expect(refused.status).toBe(404);
    expect((await apiErrorOf(refused)).code).toBe('NOT_FOUND');
  });

  test('a query with a bad signal value is refused with the parser’s sentence', async () => {
    const response = await app.api('/api/monitors', {
      token,
      method: 'POST',
      body: { query: 'kettle lang:english' },
    });
    expect(response.status).toBe(400);
    expect((await apiErrorOf(response)).message).toContain('two-letter language code');
  });
});
