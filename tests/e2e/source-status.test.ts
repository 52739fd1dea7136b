import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { startReplay } from '../../src/replay/replay-server.ts';
import { sourceHealthSchema } from '../../src/shared/source-health.ts';
import { browserAvailability, openPage } from '../support/browser.ts';
import { useBrowserSuite } from '../support/browser-suite.ts';
import { recordedCorpus } from '../support/replay-corpus.ts';

// The dashboard's status line shows each source's state: Hacker News live from the replay,
// Reddit without credentials not configured, Lobsters (nothing listening) failing.

const availability = browserAvailability();
const replay = availability.run
  ? await startReplay({ corpus: recordedCorpus(), maxRecords: 40, initial: 40, rate: 1 })
  : null;

describe.runIf(availability.run)('the source status line in Chromium', () => {
  const suite = useBrowserSuite(availability.run ? availability.path : '', {
    SOURCES: 'hackernews,reddit,lobsters',
    HN_API_URL: `${replay?.url}/v0`,
    HN_POLL_SECONDS: '0.5',
    LOBSTERS_URL: 'http://127.0.0.1:9',
    LOBSTERS_POLL_SECONDS: '0.5',
    SOURCE_TIMEOUT_SECONDS: '1',
  });

  test('each source shows its state', async () => {
    const user = await suite.e2e.createConfirmedUser();
    const context = await suite.newContext({ viewport: { width: 1280, height: 900 } });
    await suite.e2e.seedSession(context, user);
    const { page, problems } = await openPage(context);
    await page.goto('/dashboard/monitors');
    const line = page.getByTestId('source-status');
    await line.waitFor();
    // The line refreshes every 15 s; once both workers' first polls are in, a reload shows them.
    const health = z.object({ sources: z.array(sourceHealthSchema) });
    await expect
      .poll(
        async () => {
          const answer = health.parse(
            await (await fetch(`${suite.e2e.app.url}/api/health`)).json(),
          );
          return ['hackernews', 'lobsters'].map(
            (source) => answer.sources.find((s) => s.source === source)?.state,
          );
        },
        { timeout: 20_000, interval: 100 },
      )
      .toEqual(['ok', 'failing']);
    await page.reload();
    await line.locator('[data-source="lobsters"]').waitFor();
    expect(await line.locator('[data-source="hackernews"]').textContent()).toMatch(
      /^Hacker News: live(, \d+ s behind)?$/u,
    );
    expect(await line.locator('[data-source="reddit"]').textContent()).toBe(
      'Reddit: not configured',
    );
    expect(await line.locator('[data-source="lobsters"]').textContent()).toBe(
      'Lobsters: failing, retrying',
    );
    expect(await line.locator('[data-source="lobsters"]').getAttribute('title')).toMatch(
      /cannot reach 127\.0\.0\.1:9/u,
    );
    expect(problems.errors).toEqual([]);
    await replay?.close();
  });
});
