import type { SourceName } from '../shared/sources.ts';
import type { NormalisedItem, SkipReason } from './normalised-item.ts';

/** How many raw records of a batch were dropped, by reason. */
export type SkipCounts = Partial<Record<SkipReason, number>>;

/** What one `fetchNew` call brought in. */
export type SourceBatch<Cursor> = {
  /** New items, in the site's order; the pipeline stores them once per `(source, externalId)`. */
  readonly items: readonly NormalisedItem[];
  readonly skipped: SkipCounts;
  /** Where to continue from: stored in the same transaction as `items`. */
  readonly cursor: Cursor;
  /** More was waiting than one call reads: call again at once instead of after the interval. */
  readonly more: boolean;
};

/**
 * One site (docs/product.md, "Sources"): fetches what is new since a cursor and normalises it.
 * A source never touches the database: the pipeline persists the items and the cursor together,
 * and derives the source's health from the batches and the errors (`SourceError`).
 */
export interface Source<Cursor = unknown> {
  readonly name: SourceName;
  /** Wait between two calls when nothing more is waiting. */
  readonly pollIntervalMs: number;
  /** The stored cursor, checked; null (start afresh) when it is missing or not this source's shape. */
  parseCursor(stored: unknown): Cursor | null;
  /** Throws a `SourceError` on a fault it could not get past; the cursor then stays where it was. */
  fetchNew(cursor: Cursor | null, signal: AbortSignal): Promise<SourceBatch<Cursor>>;
  /** What the health line shows besides the batches (a quota running short, a queue); read after each poll. */
  status?(): SourceStatus;
}

/** What a source says of itself in `GET /api/health` (docs/product.md, "Sources"). */
export type SourceStatus = {
  /** One line an operator should read (the day's requests running short), or null. */
  readonly note: string | null;
  /** For a site that pushes (Bluesky's Jetstream): the events waiting to be stored. */
  readonly queue: SourceQueue | null;
};

export type SourceQueue = {
  /** Events waiting now. */
  readonly depth: number;
  /** The most that ever waited since the process started. */
  readonly maxDepth: number;
  /** Now minus the time of the newest event handed over, ms; null before the first. */
  readonly lagMs: number | null;
};

export type SourceErrorKind =
  | 'timeout'
  | 'network'
  | 'http-status'
  | 'rate-limited'
  | 'malformed'
  | 'auth'
  | 'aborted';

/** A fault talking to a site, typed so that health shows it and the loop waits as asked. */
export class SourceError extends Error {
  override name = 'SourceError';
  readonly kind: SourceErrorKind;
  readonly status: number | undefined;
  /** The site asked us to wait this long (Retry-After, rate-limit reset). */
  readonly retryAfterMs: number | undefined;

  constructor(
    kind: SourceErrorKind,
    message: string,
    options: { status?: number; retryAfterMs?: number; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.kind = kind;
    this.status = options.status;
    this.retryAfterMs = options.retryAfterMs;
  }
}

/** Adds `result`'s skip to `counts` when it is one. */
export function countSkip(counts: Record<string, number>, reason: SkipReason): void {
  counts[reason] = (counts[reason] ?? 0) + 1;
}
