import type { SourceName } from '../shared/sources.ts';

/** What the next matching requests get instead of (or on top of) the normal answer. */
export type ReplayFault =
  | { readonly kind: 'status'; readonly status: number; readonly retryAfter?: string }
  /** The answer, this much later (slower than a client's timeout, say). */
  | { readonly kind: 'delay'; readonly ms: number }
  /** The first half of the JSON body, then the end. */
  | { readonly kind: 'truncate' }
  /** An HTML error page with status 200, as proxies send. */
  | { readonly kind: 'html' }
  /** The connection closed without an answer. */
  | { readonly kind: 'drop' }
  /** Item answers with a field of the wrong type (Hacker News `time`, Reddit `created_utc`, Lobsters `created_at`, DEV `published_at`). */
  | { readonly kind: 'wrong-type' };

/** A site's stream (`SourceName`), or Reddit's token endpoint. */
export type FaultTarget = SourceName | 'token';

/** The faults queued for each target, and the requests each target has seen. */
export function createReplayFaults() {
  const queued: { target: FaultTarget; fault: ReplayFault; times: number }[] = [];
  const counts = new Map<FaultTarget, number>();
  const times = new Map<FaultTarget, number[]>();
  return {
    add(target: FaultTarget, fault: ReplayFault, count = 1): void {
      queued.push({ target, fault, times: count });
    },
    /** Counts a request to `target` and takes the fault it gets, if any. */
    take(target: FaultTarget, carriesItems: boolean): ReplayFault | null {
      counts.set(target, (counts.get(target) ?? 0) + 1);
      const seen = times.get(target) ?? [];
      if (seen.length === 0) times.set(target, seen);
      seen.push(Date.now());
      // A wrong-typed field needs an answer carrying items: it waits for one.
      const at = queued.findIndex(
        (entry) =>
          entry.target === target &&
          entry.times > 0 &&
          (entry.fault.kind !== 'wrong-type' || carriesItems),
      );
      if (at < 0) return null;
      const entry = queued[at] as (typeof queued)[number];
      entry.times--;
      if (entry.times <= 0) queued.splice(at, 1);
      return entry.fault;
    },
    /** Whether a fault of one of `kinds` is queued for `target` (a stream checks each message). */
    pending: (target: FaultTarget, kinds: readonly ReplayFault['kind'][]) =>
      queued.some((entry) => entry.target === target && kinds.includes(entry.fault.kind)),
    requests: (target: FaultTarget) => counts.get(target) ?? 0,
    requestTimes: (target: FaultTarget): readonly number[] => times.get(target) ?? [],
  };
}
