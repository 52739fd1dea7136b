import { ConflictError } from '../errors.ts';

/** Previews one user may have running at once: the one on screen and the one it replaces. */
export const PREVIEWS_IN_FLIGHT_PER_USER = 2;

/**
 * What keeps previews (and the breadth check on save, which reads items the same way) from
 * taking the database away from everyone else (docs/decisions/0028-preview-budget.md):
 *
 * - `enter` counts a user's previews in flight; one more than `PREVIEWS_IN_FLIGHT_PER_USER` is
 *   refused with a ConflictError (409), so holding many connections open buys nothing.
 * - `step` runs one bounded database read of a preview. Steps of all previews of the process
 *   run one at a time, in arrival order, and after each the gate rests `took × (100 / share − 1)`
 *   before the next: previews together hold the database at most `sharePercent` of the time,
 *   whatever their number. With PGlite (one query at a time) the other requests' queries run in
 *   those rests; with PostgreSQL the previews use one connection of the pool at most.
 *
 * Invariant: a step is a single short query; a preview never holds the gate between steps.
 */
export type PreviewGate = {
  enter(userId: string): () => void;
  step<T>(run: () => Promise<T>, signal?: AbortSignal): Promise<T>;
};

export function createPreviewGate(options: {
  sharePercent: number;
  perUser?: number;
  /** Milliseconds, monotonic. */
  now?: () => number;
}): PreviewGate {
  const perUser = options.perUser ?? PREVIEWS_IN_FLIGHT_PER_USER;
  const now = options.now ?? (() => performance.now());
  const restFactor = 100 / Math.min(100, Math.max(1, options.sharePercent)) - 1;
  const inFlight = new Map<string, number>();
  let tail: Promise<unknown> = Promise.resolve();
  let restUntil = 0;

  return {
    enter(userId) {
      const running = inFlight.get(userId) ?? 0;
      if (running >= perUser) {
        throw new ConflictError(
          `You already have ${perUser} previews running. Wait for one to finish (or cancel it) before asking for another.`,
          { limit: perUser },
        );
      }
      inFlight.set(userId, running + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const left = (inFlight.get(userId) ?? 1) - 1;
        if (left > 0) inFlight.set(userId, left);
        else inFlight.delete(userId);
      };
    },

    step(run, signal) {
      const turn = tail.then(async () => {
        const rest = restUntil - now();
        if (rest > 0) await new Promise((resolve) => setTimeout(resolve, rest));
        // A preview cancelled while it waited gives its turn up without touching the database.
        signal?.throwIfAborted();
        const started = now();
        try {
          return await run();
        } finally {
          restUntil = now() + (now() - started) * restFactor;
        }
      });
      tail = turn.catch(() => {});
      if (!signal) return turn;
      return Promise.race([turn, aborted(signal)]);
    },
  };
}

function aborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}
