import type { Database } from '../db/client.ts';
import type { Logger } from '../platform/logger.ts';
import type { Match } from '../shared/match.ts';
import { listRecentMatches } from './list-recent-matches.ts';
import type { MatchEvents } from './match-events.ts';

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
 * The database is the one source: one indexed query for all the users connected here reads the
 * matches committed since the last read, once a second and at once when this process announces
 * matches of a connected user (`MatchEvents`). Each read leaves out the ids already read, so
 * each match reaches the fan-out once, whichever process committed it.
 */
export class LiveMatches {
  readonly #options: Required<LiveMatchesOptions>;
  readonly #listeners = new Map<string, Set<(match: Match) => void>>();
  /** Ids read, with when: later reads leave them out while they are within the look-back. */
  readonly #known = new Map<number, number>();
  #unsubscribe: (() => void) | null = null;
  #timer: NodeJS.Timeout | null = null;
  #lastPoll = Date.now();
  #reading: Promise<void> | null = null;
  #again = false;
  #read = 0;

  constructor(options: LiveMatchesOptions) {
    this.#options = { pollMs: 1000, ...options };
  }

  /** Matches read from the database since this fan-out was made (each one once). */
  get matchesRead(): number {
    return this.#read;
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
    this.#unsubscribe = this.#options.events.subscribe((batch) => {
      if (batch.some((match) => this.#listeners.has(match.userId))) this.#wake();
    });
    this.#lastPoll = Date.now();
    this.#timer = setInterval(() => this.#wake(), this.#options.pollMs);
    this.#timer.unref();
  }

  #stop(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = null;
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    this.#known.clear();
  }

  /** Reads now, or right after the read under way. */
  #wake(): void {
    if (this.#reading) {
      this.#again = true;
      return;
    }
    this.#reading = this.#poll().finally(() => {
      this.#reading = null;
      if (this.#again && this.#listeners.size > 0) {
        this.#again = false;
        this.#wake();
      }
    });
  }

  async #poll(): Promise<void> {
    if (this.#listeners.size === 0) return;
    const started = Date.now();
    try {
      const found = await listRecentMatches(
        { db: this.#options.db },
        {
          userIds: [...this.#listeners.keys()],
          since: new Date(this.#lastPoll - LOOKBACK_MS),
          known: [...this.#known.keys()],
          limit: POLL_ROWS,
        },
      );
      // A full read may have left matches behind: read again at once, from the same point.
      if (found.length < POLL_ROWS) this.#lastPoll = started;
      else this.#again = true;
      this.#read += found.length;
      for (const { userId, match } of found) {
        this.#known.set(Number(match.id), started);
        for (const listener of this.#listeners.get(userId) ?? []) listener(match);
      }
      for (const [id, at] of this.#known) {
        if (started - at > 2 * LOOKBACK_MS) this.#known.delete(id);
      }
    } catch (error) {
      this.#options.logger.warn({ err: error }, 'live feed: reading new matches failed');
    }
  }
}
