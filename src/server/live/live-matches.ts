import { listRecentMatches } from '../../core/matches/list-recent-matches.ts';
import type { Database } from '../../db/client.ts';
import type { MatchEvents, NewMatch } from '../../pipeline/match-events.ts';
import type { Logger } from '../../platform/logger.ts';
import type { Match } from '../../shared/match.ts';

export type LiveMatchesOptions = {
  db: Database;
  events: MatchEvents;
  logger: Logger;
  /** How often the database is read for matches other processes committed. */
  pollMs?: number;
};

// A transaction's matches carry its start time and become visible at its commit; reading back
// this far covers any matching transaction shorter than it (they take milliseconds).
const LOOKBACK_MS = 30_000;
const POLL_ROWS = 1000;

/**
 * Fans new matches out to the live-feed connections of this process (docs/decisions/0014-…).
 * Matches made here arrive at once through MatchEvents; matches committed by a worker process
 * are read from the database once a second for the users connected here (one indexed query per
 * process, whatever the number of connections). Each match is delivered once: ids already sent
 * are remembered for a little longer than the lookback.
 */
export class LiveMatches {
  readonly #options: Required<LiveMatchesOptions>;
  readonly #listeners = new Map<string, Set<(match: Match) => void>>();
  readonly #sent = new Map<string, number>();
  #unsubscribe: (() => void) | null = null;
  #timer: NodeJS.Timeout | null = null;
  #lastPoll = Date.now();
  #polling = false;

  constructor(options: LiveMatchesOptions) {
    this.#options = { pollMs: 1000, ...options };
  }

  /** Calls `listener` with each new match of `userId`; returns the function that stops it. */
  subscribe(userId: string, listener: (match: Match) => void): () => void {
    let set = this.#listeners.get(userId);
    if (!set) {
      set = new Set();
      this.#listeners.set(userId, set);
    }
    set.add(listener);
    this.#start();
    return () => {
      set.delete(listener);
      if (set.size === 0) this.#listeners.delete(userId);
      if (this.#listeners.size === 0) this.#stop();
    };
  }

  close(): void {
    this.#listeners.clear();
    this.#stop();
  }

  #start(): void {
    if (this.#unsubscribe) return;
    this.#unsubscribe = this.#options.events.subscribe((batch) => this.#deliver(batch));
    this.#lastPoll = Date.now();
    this.#timer = setInterval(() => void this.#poll(), this.#options.pollMs);
    this.#timer.unref();
  }

  #stop(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = null;
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    this.#sent.clear();
  }

  #deliver(batch: readonly { userId: string; match: Match }[]): void {
    const now = Date.now();
    for (const { userId, match } of batch) {
      const listeners = this.#listeners.get(userId);
      if (!listeners || this.#sent.has(match.id)) continue;
      this.#sent.set(match.id, now);
      for (const listener of listeners) listener(match);
    }
  }

  async #poll(): Promise<void> {
    if (this.#polling || this.#listeners.size === 0) return;
    this.#polling = true;
    const started = Date.now();
    try {
      const found: NewMatch[] = await listRecentMatches(
        { db: this.#options.db },
        {
          userIds: [...this.#listeners.keys()],
          since: new Date(this.#lastPoll - LOOKBACK_MS),
          limit: POLL_ROWS,
        },
      );
      this.#lastPoll = started;
      this.#deliver(found);
      for (const [id, at] of this.#sent) if (started - at > 2 * LOOKBACK_MS) this.#sent.delete(id);
    } catch (error) {
      this.#options.logger.warn({ err: error }, 'live feed: reading new matches failed');
    } finally {
      this.#polling = false;
    }
  }
}
