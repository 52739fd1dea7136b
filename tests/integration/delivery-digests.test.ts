import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { users } from '../../src/db/schema/users.ts';
import { type DeliveryHarness, startDeliveryHarness } from '../support/delivery-harness.ts';

let h: DeliveryHarness;
beforeAll(async () => {
  h = await startDeliveryHarness();
});
afterAll(async () => {
  await h.close();
});

const sink = () => {
  const smtp = h.app.smtp;
  if (!smtp) throw new Error('no SMTP sink');
  return smtp;
};

/**
 * Moves the clock from `from` to `to` in `stepMinutes` steps, running a delivery pass at each,
 * and returns when (clock time) each address received each email.
 */
async function walk(from: string, to: string, stepMinutes: number, addresses: string[]) {
  const arrivals = new Map<string, string[]>(addresses.map((address) => [address, []]));
  for (let at = Date.parse(from); at <= Date.parse(to); at += stepMinutes * 60_000) {
    h.clock.set(at);
    await h.pass();
    for (const address of addresses) {
      for (const mail of sink().pending(address)) {
        await sink().waitForMail(address);
        arrivals.get(address)?.push(`${new Date(at).toISOString().slice(0, 16)} ${mail.subject}`);
      }
    }
  }
  return arrivals;
}

test('hourly: one digest at the next full hour of the local clock', async () => {
  h.clock.set(Date.parse('2026-06-10T10:20:00Z'));
  const utc = await h.addUser({ emailAlerts: 'hourly', timezone: 'UTC' });
  const kolkata = await h.addUser({ emailAlerts: 'hourly', timezone: 'Asia/Kolkata' });
  await h.addMonitor(utc.id, 'bun');
  await h.addMonitor(kolkata.id, 'bun');
  await h.publish(['Bun 2 is out', 'Bun vs Node']);
  const arrivals = await walk('2026-06-10T10:20:00Z', '2026-06-10T12:00:00Z', 5, [
    utc.email,
    kolkata.email,
  ]);
  expect(arrivals.get(utc.email)).toEqual(['2026-06-10T11:00 2 new mentions of “bun”']);
  // India is UTC+05:30: its full hours fall at :30 UTC.
  expect(arrivals.get(kolkata.email)).toEqual(['2026-06-10T10:30 2 new mentions of “bun”']);
});

test('daily: one digest at 08:00 in each user’s time zone', async () => {
  h.clock.set(Date.parse('2026-06-10T10:00:00Z'));
  const zones = ['Asia/Tokyo', 'America/New_York', 'Asia/Kolkata', 'Europe/London'];
  const people = [];
  for (const timezone of zones) {
    const user = await h.addUser({ emailAlerts: 'daily', timezone });
    await h.addMonitor(user.id, 'deno');
    people.push(user);
  }
  await h.publish(['Deno 3', 'Deno KV', 'Deno Deploy']);
  const arrivals = await walk(
    '2026-06-10T10:00:00Z',
    '2026-06-11T14:00:00Z',
    30,
    people.map((p) => p.email),
  );
  const subject = '3 new mentions of “deno”';
  expect(people.map((p) => arrivals.get(p.email))).toEqual([
    [`2026-06-10T23:00 ${subject}`], // 08:00 JST (UTC+9)
    [`2026-06-10T12:00 ${subject}`], // 08:00 EDT (UTC−4), still ahead on the 10th
    [`2026-06-11T02:30 ${subject}`], // 08:00 IST (UTC+5:30)
    [`2026-06-11T07:00 ${subject}`], // 08:00 BST (UTC+1)
  ]);
});

test('daily across the end of DST: 08:00 on the wall clock, an hour later in UTC', async () => {
  // New York leaves DST at 02:00 on Sunday 1 November 2026.
  h.clock.set(Date.parse('2026-10-30T20:00:00Z'));
  const user = await h.addUser({ emailAlerts: 'daily', timezone: 'America/New_York' });
  await h.addMonitor(user.id, 'htmx');
  await h.publish(['htmx 3 before the change']);
  const before = await walk('2026-10-30T20:00:00Z', '2026-10-31T13:00:00Z', 15, [user.email]);
  expect(before.get(user.email)).toEqual(['2026-10-31T12:00 1 new mention of “htmx”']); // EDT

  h.clock.set(Date.parse('2026-10-31T20:00:00Z'));
  await h.publish(['htmx 3 across the change']);
  const across = await walk('2026-10-31T20:00:00Z', '2026-11-01T14:00:00Z', 15, [user.email]);
  expect(across.get(user.email)).toEqual(['2026-11-01T13:00 1 new mention of “htmx”']); // EST
});

test('changing the mode applies to matches already waiting', async () => {
  h.clock.set(Date.parse('2026-06-12T09:10:00Z'));
  const user = await h.addUser({ emailAlerts: 'daily' });
  await h.addMonitor(user.id, 'solid');
  expect(await h.publish(['Solid 2 is out'])).toBe(1);
  await h.pass();
  expect(sink().pending(user.email)).toHaveLength(0);
  // The Settings page does this through PUT /api/user; here straight in the table.
  await h.db.update(users).set({ emailAlerts: 'hourly' }).where(eq(users.id, user.id));
  const arrivals = await walk('2026-06-12T09:10:00Z', '2026-06-12T10:30:00Z', 10, [user.email]);
  expect(arrivals.get(user.email)).toEqual(['2026-06-12T10:00 1 new mention of “solid”']);
});
