import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, test } from 'vitest';
import { ConflictError } from '../errors.ts';
import { createPreviewGate } from './preview-gate.ts';

describe('the previews’ gate', () => {
  test('a user has at most two previews in flight; a finished one frees its place', () => {
    const gate = createPreviewGate({ sharePercent: 50 });
    const first = gate.enter('ann');
    gate.enter('ann');
    expect(() => gate.enter('ann')).toThrow(ConflictError);
    expect(() => gate.enter('ann')).toThrow(/already have 2 previews running/);
    gate.enter('bob');
    first();
    first();
    gate.enter('ann');
    expect(() => gate.enter('ann')).toThrow(ConflictError);
  });

  test('steps run one at a time and rest so previews hold the database at most their share', async () => {
    const gate = createPreviewGate({ sharePercent: 25 });
    const spans: { start: number; end: number }[] = [];
    const step = () =>
      gate.step(async () => {
        const start = performance.now();
        await sleep(20);
        spans.push({ start, end: performance.now() });
      });
    await Promise.all([step(), step(), step(), step()]);
    // Each step and the rest after it: from the first step's start to the last one's.
    const rested = spans.slice(0, -1);
    const busy = rested.reduce((sum, span) => sum + span.end - span.start, 0);
    const first = spans[0]?.start ?? 0;
    const last = spans.at(-1)?.start ?? 0;
    for (let i = 1; i < spans.length; i++) {
      const gap = (spans[i]?.start ?? 0) - (spans[i - 1]?.end ?? 0);
      // 25%: each step is followed by three times its length of rest.
      expect(gap).toBeGreaterThanOrEqual(
        3 * ((spans[i - 1]?.end ?? 0) - (spans[i - 1]?.start ?? 0)) - 2,
      );
    }
    // The first three steps and their rests: at most a quarter of that time busy (a late timer
    // only makes a rest longer). The last step has no rest after it yet, and a slow one on a busy
    // machine says nothing of the share (it failed a bound that counted it: 0.3130 > 4 / 13).
    expect(busy / (last - first)).toBeLessThanOrEqual(0.25 + 0.005);
  });

  test('a step cancelled while it waits gives up at once and never runs', async () => {
    const gate = createPreviewGate({ sharePercent: 1 });
    await gate.step(() => sleep(10));
    const controller = new AbortController();
    let ran = false;
    const waiting = gate.step(async () => {
      ran = true;
    }, controller.signal);
    const started = performance.now();
    controller.abort(new Error('the client went away'));
    await expect(waiting).rejects.toThrow('the client went away');
    expect(performance.now() - started).toBeLessThan(100);
    await sleep(1200);
    expect(ran).toBe(false);
  });
});
