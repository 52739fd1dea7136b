import type { MonitorDelivery } from '../shared/monitor.ts';
import type { EmailAlertMode, QuietHours } from '../shared/user.ts';
import { dueAt, quietUntil, type Rhythm } from './schedule.ts';

/**
 * A rhythm per monitor and quiet hours per user (docs/product.md, "Delivery"; decision 0038).
 * Each rhythm a user's waiting matches follow has a batch of its own, opened when its first match
 * is seen (`batches`: rhythm → ISO instant) and due by `dueAt`; instant and hourly batches due in
 * the user's quiet hours wait until they end. The batches due now go out as one email.
 */
export type RhythmPlan = {
  /** The rhythms due now. */
  readonly due: readonly Rhythm[];
  /** When each waiting rhythm's batch opened, the new ones opened now. */
  readonly batches: Readonly<Record<string, string>>;
  /** When the first rhythm not due now will be; null when none waits. */
  readonly nextDue: Date | null;
};

/** The rhythm a monitor's matches follow; null: none (the feed only). */
export function rhythmOf(delivery: MonitorDelivery, userMode: EmailAlertMode): Rhythm | null {
  if (delivery === 'feed') return null;
  if (delivery !== 'default') return delivery;
  return userMode === 'off' ? null : userMode;
}

export function planRhythms(input: {
  readonly rhythms: ReadonlySet<Rhythm>;
  readonly batches: Readonly<Record<string, string>>;
  readonly now: Date;
  readonly timeZone: string;
  readonly quietHours: QuietHours;
  readonly batchSeconds: number;
}): RhythmPlan {
  const batches: Record<string, string> = {};
  const due: Rhythm[] = [];
  let nextDue: Date | null = null;
  for (const rhythm of input.rhythms) {
    const since = input.batches[rhythm] ?? input.now.toISOString();
    batches[rhythm] = since;
    const at = dueAtQuietly(rhythm, new Date(since), input);
    if (at.getTime() <= input.now.getTime()) due.push(rhythm);
    else if (nextDue === null || at < nextDue) nextDue = at;
  }
  return { due, batches, nextDue };
}

function dueAtQuietly(
  mode: Rhythm,
  pendingSince: Date,
  input: { timeZone: string; quietHours: QuietHours; batchSeconds: number },
): Date {
  const at = dueAt({
    mode,
    pendingSince,
    timeZone: input.timeZone,
    batchSeconds: input.batchSeconds,
  });
  // Digests are the user's chosen time; only the alerts that would interrupt wait.
  if (mode !== 'instant' && mode !== 'hourly') return at;
  return quietUntil(at, input.timeZone, input.quietHours) ?? at;
}
