import { and, eq, ilike } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { monitors } from '../db/schema/monitors.ts';
import { parseQuery } from '../matcher/query-parser.ts';
import { queryRepositories } from '../matcher/query-sources.ts';
import { watchesEverySite } from '../shared/sources.ts';
import type { SourceInterests } from '../sources/plugin.ts';

/** The repositories are read again from the monitors at most this often. */
const REFRESH_MS = 30_000;

/**
 * What the monitors ask the sites to read besides their firehose: the GitHub repositories named
 * by active monitors that watch GitHub (`repo:owner/name`, decision 0042). Only monitors whose
 * query holds `repo:` are read, at most every 30 s; a failed read keeps the last list.
 */
export function createSourceInterests(db: Database, now: () => number = Date.now): SourceInterests {
  let cached: readonly string[] = [];
  let readAt = Number.NEGATIVE_INFINITY;
  return {
    async repositories() {
      if (now() - readAt < REFRESH_MS) return cached;
      try {
        const rows = await db
          .select({ query: monitors.query, sources: monitors.sources })
          .from(monitors)
          .where(and(eq(monitors.paused, false), ilike(monitors.query, '%repo:%')));
        const names = new Set<string>();
        for (const row of rows) {
          if (!watchesEverySite(row.sources) && !row.sources.includes('github')) continue;
          try {
            for (const name of queryRepositories(parseQuery(row.query))) names.add(name);
          } catch {
            // A stored query the parser no longer reads names no repository.
          }
        }
        cached = [...names].sort();
        readAt = now();
      } catch {
        // The database did not answer: the last list stands, and the next call asks again.
      }
      return cached;
    },
  };
}
