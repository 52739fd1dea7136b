/**
 * When each record of a replayed stream becomes visible: `initial` at once, then `rate` a second.
 * Kept as segments of constant rate, so `revealedAt` stays exact across `setRate` and bursts.
 */
export type RevealClock = {
  /** Records revealed by `now` (ms since the epoch), without an end. */
  count(now?: number): number;
  /** The moment record `index` became (or becomes) visible. */
  revealedAt(index: number): number;
  /** Changes the rate from now on. */
  setRate(rate: number): void;
  /** Reveals `count` more records at once. */
  revealMore(count: number): void;
};

export function createRevealClock(initial: number, rate: number): RevealClock {
  const segments: { at: number; count: number; rate: number }[] = [
    { at: Date.now(), count: initial, rate },
  ];
  const last = () => segments.at(-1) as (typeof segments)[number];
  const count = (now = Date.now()): number => {
    const segment = last();
    return segment.count + Math.floor(((now - segment.at) / 1000) * segment.rate);
  };
  return {
    count,
    revealedAt(index) {
      for (let s = segments.length - 1; s >= 0; s--) {
        const segment = segments[s] as (typeof segments)[number];
        // Revealed while this segment's rate ran.
        if (index >= segment.count)
          return segment.at + ((index - segment.count + 1) / segment.rate) * 1000;
        const before = segments[s - 1];
        // Revealed when the segment began: the first one's initial items, or a jump (revealMore).
        if (!before) return segment.at;
        const countBefore =
          before.count + Math.floor(((segment.at - before.at) / 1000) * before.rate);
        if (index >= countBefore) return segment.at;
      }
      return segments[0]?.at ?? 0;
    },
    setRate(rate) {
      const now = Date.now();
      segments.push({ at: now, count: count(now), rate });
    },
    revealMore(more) {
      const now = Date.now();
      segments.push({ at: now, count: count(now) + more, rate: last().rate });
    },
  };
}
