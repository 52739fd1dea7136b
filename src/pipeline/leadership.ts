import { hostname } from 'node:os';
import pg from 'pg';
import { ADVISORY_LOCKS } from '../db/advisory-locks.ts';
import type { DatabaseHandle } from '../db/client.ts';
import type { PipelineLogger } from './logger.ts';

/** Work that runs only while this process holds its lease; it must return soon after `signal` aborts. */
export type LeaseTask = (signal: AbortSignal) => Promise<void>;

export type Leadership = {
  /** Runs `task` whenever this process holds the lease `key` (one holder among all processes). */
  lead(name: string, key: number, task: LeaseTask): void;
  /**
   * Runs `task(k)` for at most `max` of `keys`, each held by one process at a time (matcher
   * shards: a worker takes what is free, another takes over what a dead one held).
   */
  leadSome(
    keys: readonly { name: string; key: number }[],
    max: number,
    task: (name: string, signal: AbortSignal) => Promise<void>,
  ): void;
  /** Called with each NOTIFY payload of `channel` (PostgreSQL only; PGlite is one process). */
  listen(channel: string, onNotify: (payload: string) => void): void;
  /** Names of the leases held now. */
  held(): string[];
  stop(): Promise<void>;
};

/** This process, as shown in health rows and logs. */
export const PROCESS_NAME = `${hostname()}:${process.pid}`;

/** Leases shared out among processes, at most `max` each (matcher shards). */
type Group = { readonly max: number };

/** The lease connections of processes that want group leases, counted by application name. */
const GROUP_LEASES_APPLICATION = 'earshot group leases';

type Wanted = {
  readonly name: string;
  readonly key: number;
  readonly task: LeaseTask;
  running: { abort: AbortController; done: Promise<void> } | null;
  /** A group's members share a budget of held leases. */
  readonly group: Group | null;
  /** Ticks in a row this lease was seen free while this process was at its budget. */
  orphanTicks: number;
};

/**
 * A lease nobody under budget took for this many ticks is taken over the budget: never orphaned
 * (and handed back when a process with room for it connects: handBackOverBudget).
 */
const ORPHAN_TICKS = 3;

/**
 * Leaders by PostgreSQL session advisory locks on one dedicated connection per process
 * (docs/decisions/0012-ingestion-worker-and-leadership.md): the server frees the locks the
 * moment that connection dies, so a standby takes over at its next try (every `retryMs`).
 * When the connection fails a health check, every task is stopped before it is replaced, so
 * two processes never lead at once for long. On PGlite the one process leads everything.
 */
export function createLeadership(
  handle: DatabaseHandle,
  options: { readonly retryMs?: number; readonly logger: PipelineLogger },
): Leadership {
  const retryMs = options.retryMs ?? 5000;
  const logger = options.logger;
  const wanted: Wanted[] = [];
  const listeners: { channel: string; onNotify: (payload: string) => void }[] = [];
  let stopped = false;
  let client: pg.Client | null = null;
  let timer: NodeJS.Timeout | null = null;
  let ticking: Promise<void> = Promise.resolve();

  const start = (lease: Wanted) => {
    const abort = new AbortController();
    const done = lease
      .task(abort.signal)
      .catch((error: unknown) =>
        logger.error({ lease: lease.name, err: error }, 'lease task failed'),
      )
      .finally(() => {
        if (lease.running?.abort === abort) lease.running = null;
        if (handle.driver.kind === 'postgres' && client && !abort.signal.aborted) {
          // The task ended by itself: give the lease back so someone can run it.
          client
            .query('select pg_advisory_unlock($1, $2)', [ADVISORY_LOCKS.leaseClass, lease.key])
            .catch(() => {});
        }
      });
    lease.running = { abort, done };
    logger.info({ lease: lease.name, process: PROCESS_NAME }, 'leading');
  };

  const stopAll = async () => {
    const running = wanted.flatMap((lease) => (lease.running ? [lease.running] : []));
    for (const run of running) run.abort.abort();
    await Promise.all(running.map((run) => run.done));
  };

  /** The lease connection, checked: after a failed check every led task stops before it is replaced. */
  async function healthyConnection(): Promise<pg.Client | null> {
    try {
      if (client) await client.query('select 1');
    } catch (error) {
      logger.warn({ err: error }, 'lost the lease connection; stopping led work');
      await stopAll();
      client?.end().catch(() => {});
      client = null;
    }
    try {
      client ??= await openLeaseConnection(
        handle,
        listeners,
        wanted.some((lease) => lease.group) ? GROUP_LEASES_APPLICATION : 'earshot leases',
      );
    } catch (error) {
      logger.warn({ err: error }, 'cannot open the lease connection; retrying');
      return null;
    }
    return client;
  }

  /** One round: every wanted lease not running here is tried, within its group's budget. */
  async function tick(): Promise<void> {
    if (stopped) return;
    if (handle.driver.kind !== 'postgres') {
      for (const lease of wanted) if (!lease.running) start(lease);
      return;
    }
    const connection = await healthyConnection();
    if (!connection) return;
    const held = new Map<Group, number>();
    for (const lease of wanted) {
      if (lease.running && lease.group) held.set(lease.group, (held.get(lease.group) ?? 0) + 1);
    }
    if (!(await handBackOverBudget(connection, wanted, held, logger))) return;
    for (const lease of wanted) {
      if (lease.running || stopped) continue;
      if (lease.group && (held.get(lease.group) ?? 0) >= lease.group.max) {
        const mayTake = await orphaned(connection, lease);
        if (mayTake === undefined) return;
        if (!mayTake) continue;
      }
      const got = await tryLease(connection, lease, logger);
      if (got === undefined) return;
      if (got) {
        lease.orphanTicks = 0;
        start(lease);
        if (lease.group) held.set(lease.group, (held.get(lease.group) ?? 0) + 1);
      }
    }
  }

  const schedule = (delay: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      ticking = tick().finally(() => schedule(retryMs));
    }, delay);
  };
  schedule(0);

  return {
    lead(name, key, task) {
      wanted.push({ name, key, task, running: null, group: null, orphanTicks: 0 });
    },
    leadSome(keys, max, task) {
      const group = { max };
      for (const { name, key } of keys) {
        wanted.push({
          name,
          key,
          task: (signal) => task(name, signal),
          running: null,
          group,
          orphanTicks: 0,
        });
      }
    },
    listen(channel, onNotify) {
      listeners.push({ channel, onNotify });
      client?.query(`listen ${pg.escapeIdentifier(channel)}`).catch(() => {});
    },
    held: () => wanted.filter((lease) => lease.running).map((lease) => lease.name),
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await ticking;
      await stopAll();
      await client?.end().catch(() => {});
      client = null;
    },
  };
}

/**
 * A lease taken over budget (an orphan nobody else took) is handed back, one a round, once
 * enough processes that want such leases are connected to hold all of them within budget: a
 * worker started after another took every shard gets its share at its next round. False when
 * the database could not say.
 */
async function handBackOverBudget(
  connection: pg.Client,
  wanted: readonly Wanted[],
  held: Map<Group, number>,
  logger: PipelineLogger,
): Promise<boolean> {
  for (const [group, count] of held) {
    if (count <= group.max) continue;
    const members = wanted.filter((lease) => lease.group === group);
    let processes: number;
    try {
      const result = await connection.query<{ n: number }>(
        `select count(*)::int as n from pg_stat_activity
           where application_name = $1 and datname = current_database()`,
        [GROUP_LEASES_APPLICATION],
      );
      processes = result.rows[0]?.n ?? 1;
    } catch {
      return false;
    }
    if (processes * group.max < members.length) continue;
    const extra = members.findLast((lease) => lease.running);
    if (!extra?.running) continue;
    const run = extra.running;
    run.abort.abort();
    await run.done;
    extra.running = null;
    extra.orphanTicks = 0;
    try {
      await connection.query('select pg_advisory_unlock($1, $2)', [
        ADVISORY_LOCKS.leaseClass,
        extra.key,
      ]);
    } catch {
      return false;
    }
    held.set(group, count - 1);
    logger.info({ lease: extra.name, process: PROCESS_NAME }, 'handed back a lease over budget');
  }
  return true;
}

/** A connection of its own for the session locks, listening on every channel asked for. */
async function openLeaseConnection(
  handle: DatabaseHandle,
  listeners: readonly { channel: string; onNotify: (payload: string) => void }[],
  applicationName: string,
): Promise<pg.Client> {
  if (handle.driver.kind !== 'postgres') throw new Error('not PostgreSQL');
  const options = handle.driver.pool.options;
  const fresh = new pg.Client({
    ...options,
    keepAlive: true,
    connectionTimeoutMillis: 5000,
    application_name: applicationName,
  });
  fresh.on('error', () => {});
  fresh.on('notification', (message) => {
    for (const listener of listeners) {
      if (listener.channel === message.channel) listener.onNotify(message.payload ?? '');
    }
  });
  await fresh.connect();
  for (const channel of new Set(listeners.map((listener) => listener.channel))) {
    await fresh.query(`listen ${pg.escapeIdentifier(channel)}`);
  }
  return fresh;
}

/**
 * Whether a lease of a group already at its budget may be taken anyway: once it has been seen
 * free for ORPHAN_TICKS ticks in a row, nobody under budget will take it. Undefined when the
 * database could not say.
 */
async function orphaned(connection: pg.Client, lease: Wanted): Promise<boolean | undefined> {
  try {
    const free = await connection.query<{ free: boolean }>(
      `select not exists (select 1 from pg_locks where locktype = 'advisory' and classid = $1
         and objid = $2 and granted) as free`,
      [ADVISORY_LOCKS.leaseClass, lease.key],
    );
    lease.orphanTicks = free.rows[0]?.free ? lease.orphanTicks + 1 : 0;
  } catch {
    return undefined;
  }
  return lease.orphanTicks >= ORPHAN_TICKS;
}

/** Takes the lease if nobody holds it; undefined when the database could not say. */
async function tryLease(
  connection: pg.Client,
  lease: Wanted,
  logger: PipelineLogger,
): Promise<boolean | undefined> {
  try {
    const result = await connection.query<{ got: boolean }>(
      'select pg_try_advisory_lock($1, $2) as got',
      [ADVISORY_LOCKS.leaseClass, lease.key],
    );
    return result.rows[0]?.got === true;
  } catch (error) {
    logger.warn({ err: error, lease: lease.name }, 'cannot try a lease');
    return undefined;
  }
}
