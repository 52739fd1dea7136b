import { z } from 'zod';
import { SOURCE_NAMES } from './sources.ts';

/**
 * How a source is doing (docs/product.md, "Sources"): `ok` is live; `lagging` is working but
 * behind (or not started yet); `failing` is its last call failed (or no worker reports it);
 * `not_configured` is turned off, or Reddit without credentials.
 */
export const SOURCE_STATES = ['ok', 'lagging', 'failing', 'not_configured'] as const;
export type SourceState = (typeof SOURCE_STATES)[number];

export const sourceHealthSchema = z.object({
  source: z.enum(SOURCE_NAMES),
  state: z.enum(SOURCE_STATES),
  /** ISO 8601 of the last successful poll; null when none yet. */
  lastSuccessAt: z.string().nullable(),
  lastErrorAt: z.string().nullable(),
  /** The last fault in one line (never a secret); null when none. */
  lastError: z.string().nullable(),
  itemsPerMinute: z.number().int().nonnegative(),
  /** Seconds between the newest item's time at the site and now; null when unknown. */
  behindSeconds: z.number().int().nonnegative().nullable(),
  /** Records dropped since the leader started, by reason (deleted, invalid, …). */
  skipped: z.record(z.string(), z.number().int().nonnegative()),
  /** What the source says of itself in one line (the day's requests running short), or null. */
  note: z.string().nullable(),
  /** A site that pushes (Bluesky): events waiting to be stored and how far behind; else null. */
  queue: z
    .object({
      depth: z.number().int().nonnegative(),
      maxDepth: z.number().int().nonnegative(),
      /** Now minus the time of the newest event handed over, ms; null before the first. */
      lagMs: z.number().int().nullable(),
    })
    .nullable(),
});
export type SourceHealth = z.infer<typeof sourceHealthSchema>;
