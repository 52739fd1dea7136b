import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { openDatabase } from '../../src/db/client.ts';
import { migrateDatabase } from '../../src/db/migrate.ts';
import { deliveryOutbox } from '../../src/db/schema/delivery.ts';
import { MatchEvents } from '../../src/matches/match-events.ts';
import { loadMonitorIndex } from '../../src/pipeline/load-monitor-index.ts';
import { matchNewItems } from '../../src/pipeline/match-new-items.ts';
import { storeItems } from '../../src/pipeline/store-items.ts';
import {
  type AppProcess,
  createDataDir,
  freePort,
  startAppProcess,
} from '../support/app-process.ts';
import { type DeliveryHarness, startDeliveryHarness } from '../support/delivery-harness.ts';
import { createMonitor, createUser, uniqueEmail } from '../support/factories.ts';
import { type ReceivedMail, type SmtpSink, startSmtpSink } from '../support/smtp-sink.ts';

const cleanup: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
});

const messageId = (mail: ReceivedMail) =>
  mail.headers.find((entry) => entry.key === 'message-id')?.value ?? '';

test('the SMTP server down for a while, then back: every email is delivered, once', async () => {
  const port = await freePort();
  let sink: SmtpSink = await startSmtpSink({ port });
  const h: DeliveryHarness = await startDeliveryHarness({
    env: { SMTP_URL: `smtp://127.0.0.1:${port}`, DELIVERY_RETRY_BASE_SECONDS: '10' },
  });
  cleanup.push(() => h.close());
  const people: { id: string; email: string }[] = [];
  for (let i = 0; i < 5; i++) {
    const user = await h.addUser();
    await h.addMonitor(user.id, `outage${i}`);
    people.push(user);
  }
  await h.publish(people.map((_, i) => `outage${i} report`));
  await h.pass();
  await sink.close(); // down

  // Twenty minutes of outage: every attempt fails and is retried later, none is lost.
  for (let minute = 1; minute <= 20; minute++) {
    h.clock.advance(60_000);
    await h.pass();
  }
  const waiting = await h.db.select().from(deliveryOutbox);
  const ours = waiting.filter((row) => people.some((p) => p.id === row.userId));
  expect(ours).toHaveLength(5);
  for (const row of ours) {
    expect(row.status).toBe('pending');
    expect(row.attempts).toBeGreaterThanOrEqual(4);
    expect(row.lastError).toMatch(/ECONNREFUSED/);
  }

  sink = await startSmtpSink({ port }); // back
  cleanup.push(() => sink.close());
  // The longest backoff so far is under twenty minutes (10 s doubled, plus jitter).
  for (let minute = 1; minute <= 30; minute++) {
    h.clock.advance(60_000);
    await h.pass();
  }
  for (const person of people) {
    expect(sink.pending(person.email), person.email).toHaveLength(1);
  }
  expect(sink.messages).toHaveLength(5);
  expect(new Set(sink.messages.map(messageId)).size).toBe(5);
});

test('the process killed with kill -9 mid-drain: after a restart every email is delivered, duplicates only in the documented window', async () => {
  const RECIPIENTS = 12;
  const dataDir = createDataDir({ migrated: true });
  // Matches made before the server starts, by another process, as a worker would.
  const seed = await openDatabase({ pgliteDir: path.join(dataDir, 'pglite') });
  await migrateDatabase(seed);
  const addresses: string[] = [];
  for (let i = 0; i < RECIPIENTS; i++) {
    const user = await createUser(seed.db, { email: uniqueEmail('crash') });
    addresses.push(user.email);
    await createMonitor(seed.db, { userId: user.id, query: `crash${i}` });
  }
  await storeItems(seed.db, {
    source: 'hackernews',
    items: addresses.map((_, i) => ({
      source: 'hackernews' as const,
      externalId: `crash-${i}`,
      kind: 'post' as const,
      title: `crash${i} happened`,
      body: '',
      url: null,
      permalink: `https://news.ycombinator.com/item?id=${i}`,
      author: 'pg',
      community: null,
      parentExternalId: null,
      threadTitle: null,
      createdAt: new Date().toISOString(),
    })),
  });
  const made = await matchNewItems({
    db: seed.db,
    index: await loadMonitorIndex(seed.db),
    events: new MatchEvents(),
  });
  expect(made.matches).toBe(RECIPIENTS);
  await seed.close();

  // A slow relay, so the kill lands while messages are being handed over.
  const sink = await startSmtpSink({ acceptDelayMs: 300 });
  cleanup.push(() => sink.close());
  const env = {
    SMTP_URL: sink.url,
    ALERT_BATCH_SECONDS: '0',
    DELIVERY_POLL_MS: '200',
    DELIVERY_LEASE_SECONDS: '2',
    LOG_LEVEL: 'warn',
  };
  let app: AppProcess = await startAppProcess({ dataDir, env });
  cleanup.push(() => app.stop('SIGKILL'));
  await waitFor(() => sink.messages.length >= 4, 30_000, 'the first emails');
  await app.stop('SIGKILL');
  // Anything the killed process had handed over is accepted (or dropped) by now.
  await new Promise((resolve) => setTimeout(resolve, 600));
  const beforeRestart = sink.messages.length;
  expect(beforeRestart).toBeLessThan(RECIPIENTS);

  app = await startAppProcess({ dataDir, env });
  await waitFor(
    () => new Set(sink.messages.map(messageId)).size >= RECIPIENTS,
    30_000,
    'every email after the restart',
  );
  // Stopped, the outbox is the truth: once every row is sent, no copy can still come. A row the
  // killed process had leased may still wait for its lease to run out: start again until sent.
  let unsent = RECIPIENTS;
  for (let round = 0; ; round++) {
    await app.stop('SIGTERM');
    const outbox = await openDatabase({ pgliteDir: path.join(dataDir, 'pglite') });
    try {
      const rows = await outbox.db.select().from(deliveryOutbox);
      unsent = rows.filter((row) => row.status !== 'sent').length;
      expect(rows).toHaveLength(RECIPIENTS);
    } finally {
      await outbox.close();
    }
    if (unsent === 0 || round >= 3) break;
    const received = sink.messages.length;
    app = await startAppProcess({ dataDir, env });
    await waitFor(() => sink.messages.length > received, 30_000, 'the unsent email');
  }
  expect(unsent).toBe(0);

  for (const address of addresses) {
    expect(
      sink.messages.filter((mail) => mail.to.includes(address)).length,
      address,
    ).toBeGreaterThanOrEqual(1);
  }
  const copies = new Map<string, number[]>();
  sink.messages.forEach((mail, index) => {
    copies.set(messageId(mail), [...(copies.get(messageId(mail)) ?? []), index]);
  });
  const repeated = [...copies.values()].filter((indexes) => indexes.length > 1);
  // The sender hands over one message at a time: at most the one accepted but not yet marked
  // sent when the process died goes out again, and its first copy is from before the kill.
  expect(repeated.length).toBeLessThanOrEqual(1);
  for (const indexes of repeated) {
    expect(indexes).toHaveLength(2);
    expect(indexes[0]).toBeLessThan(beforeRestart);
  }
  expect(sink.messages.length).toBe(RECIPIENTS + repeated.length);
}, 120_000);

async function waitFor(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
