import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { matches } from '../db/schema/matches.ts';

/** What a decider knows of a batch of waiting matches and of the daily cap it counts against. */
export type BatchState<T> = {
  /** The matches waiting, oldest first. */
  readonly pending: readonly T[];
  /** When the batch was opened; null when these matches are the first seen. */
  readonly pendingSince: Date | null;
  /** When a batch opened at `pendingSince` is due (the alert mode's rule, `dueAt`). */
  readonly dueAt: (pendingSince: Date) => Date;
  readonly now: Date;
  /** The recipient's local day now (`localDay`), and the day and count the cap last counted. */
  readonly today: string;
  /** The start of the recipient's next local day, when a full cap makes room again. */
  readonly tomorrow: Date;
  readonly cap: { readonly limit: number; readonly day: string | null; readonly count: number };
};

/**
 * The decision: wait until `dueAt`, or send `covered` now and hold the rest (over the cap) for
 * the next message, their flags left set.
 */
export type BatchPlan<T> =
  | { readonly due: false; readonly pendingSince: Date; readonly dueAt: Date }
  | {
      readonly due: true;
      /** The matches to send, oldest first, as many as today's cap leaves room for. */
      readonly covered: readonly T[];
      /** Matches over the cap: still waiting, for the first message once the cap makes room. */
      readonly held: number;
      /** The cap's day and count once `covered` is sent. */
      readonly capDay: string;
      readonly capCount: number;
      /** This batch reaches the cap: its message says so. */
      readonly capReached: boolean;
    };

/**
 * The batching and the daily cap both deciders share (docs/decisions/0015-delivery-outbox.md,
 * decision 0037): the batch opens when its first match is seen and is due by the alert mode's
 * rule; once due, it covers as many waiting matches as the day's cap leaves room for, and the
 * rest stay waiting: a batch that finds today's cap full waits for the next local day.
 */
export function planBatch<T>(state: BatchState<T>): BatchPlan<T> {
  const pendingSince = state.pendingSince ?? state.now;
  const used = state.cap.day === state.today ? state.cap.count : 0;
  const ruleDue = state.dueAt(pendingSince);
  const dueAt = used >= state.cap.limit && state.tomorrow > ruleDue ? state.tomorrow : ruleDue;
  if (dueAt.getTime() > state.now.getTime()) return { due: false, pendingSince, dueAt };
  const covered = state.pending.slice(0, Math.max(0, state.cap.limit - used));
  return {
    due: true,
    covered,
    held: state.pending.length - covered.length,
    capDay: state.today,
    capCount: used + covered.length,
    capReached: used + covered.length >= state.cap.limit,
  };
}

/** Marks matches decided on for one channel (`matches.email_pending` or `webhook_pending`). */
export async function clearPending(
  tx: Pick<Database, 'update'>,
  flag: 'emailPending' | 'webhookPending',
  ids: readonly number[],
): Promise<void> {
  if (ids.length === 0) return;
  await tx
    .update(matches)
    .set(flag === 'emailPending' ? { emailPending: false } : { webhookPending: false })
    .where(sql`${matches.id} = any(${sql.param(ids)}::bigint[])`);
}
