import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { sourceHealth } from '../db/schema/source-health.ts';
import { describeError } from '../platform/describe-error.ts';
import type { SourceState } from '../shared/source-health.ts';
import type { SourceName } from '../shared/sources.ts';
import type { SkipCounts, SourceStatus } from '../sources/source.ts';

const MINUTE = 60_000;

/**
 * A source's health as its leader sees it: the outcome of the last poll, items a minute over
 * the last minute, seconds behind the site (the age of the newest item read, 0 when caught up
 * with nothing new) and dropped records by reason. `ok` turns `lagging` when more than a minute
 * (or three polls) behind, and `failing` while the last poll failed.
 */
export class SourceHealthTracker {
  readonly source: SourceName;
  readonly #pollIntervalMs: number;
  readonly #now: () => number;
  #state: SourceState = 'lagging';
  #lastSuccessAt: Date | null = null;
  #lastErrorAt: Date | null = null;
  #lastError: string | null = null;
  #behindSeconds: number | null = null;
  readonly #recent: [at: number, items: number][] = [];
  readonly #skipped: Record<string, number> = {};
  #status: SourceStatus = { note: null, queue: null };

  constructor(source: SourceName, pollIntervalMs: number, now: () => number = Date.now) {
    this.source = source;
    this.#pollIntervalMs = pollIntervalMs;
    this.#now = now;
  }

  get state(): SourceState {
    return this.#state;
  }

  succeeded(batch: {
    readonly stored: number;
    readonly skipped: SkipCounts;
    readonly newestCreatedAt: number | null;
    readonly more: boolean;
  }): void {
    const now = this.#now();
    this.#lastSuccessAt = new Date(now);
    this.#recent.push([now, batch.stored]);
    for (const [reason, n] of Object.entries(batch.skipped)) {
      this.#skipped[reason] = (this.#skipped[reason] ?? 0) + (n ?? 0);
    }
    if (batch.newestCreatedAt !== null) {
      this.#behindSeconds = Math.max(0, Math.round((now - batch.newestCreatedAt) / 1000));
    } else if (!batch.more) {
      this.#behindSeconds = 0;
    }
    const lagLimit = Math.max(MINUTE, 3 * this.#pollIntervalMs) / 1000;
    this.#state = (this.#behindSeconds ?? 0) > lagLimit ? 'lagging' : 'ok';
  }

  /** What the source says of itself (its `status()`), shown until it says otherwise. */
  observe(status: SourceStatus | undefined): void {
    if (status) this.#status = status;
  }

  failed(error: unknown): void {
    this.#lastErrorAt = new Date(this.#now());
    this.#lastError = describeError(error);
    this.#state = 'failing';
  }

  itemsPerMinute(): number {
    const since = this.#now() - MINUTE;
    while (this.#recent.length > 0 && (this.#recent[0]?.[0] ?? 0) < since) this.#recent.shift();
    return this.#recent.reduce((sum, [, n]) => sum + n, 0);
  }

  /** Writes the row `GET /api/health` reads. */
  async write(db: Database, leader: string): Promise<void> {
    const values = {
      source: this.source,
      state: this.#state,
      lastSuccessAt: this.#lastSuccessAt,
      lastErrorAt: this.#lastErrorAt,
      lastError: this.#lastError,
      itemsPerMinute: this.itemsPerMinute(),
      behindSeconds: this.#behindSeconds,
      skipped: { ...this.#skipped },
      note: this.#status.note,
      queue: this.#status.queue && {
        ...this.#status.queue,
        lagMs: this.#status.queue.lagMs === null ? null : Math.round(this.#status.queue.lagMs),
      },
      leader,
      updatedAt: new Date(this.#now()),
    };
    await db
      .insert(sourceHealth)
      .values(values)
      .onConflictDoUpdate({
        target: sourceHealth.source,
        set: { ...values, source: sql`excluded.source` },
      });
  }
}

/** Marks a source as turned off, so every process shows it as such. */
export async function writeNotConfigured(db: Database, source: SourceName): Promise<void> {
  const values = {
    source,
    state: 'not_configured',
    lastError: null,
    itemsPerMinute: 0,
    behindSeconds: null,
    note: null,
    queue: null,
    updatedAt: new Date(),
  };
  await db
    .insert(sourceHealth)
    .values(values)
    .onConflictDoUpdate({ target: sourceHealth.source, set: values });
}
