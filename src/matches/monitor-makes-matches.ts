import { sql } from 'drizzle-orm';
import { monitors } from '../db/schema/monitors.ts';

/**
 * Whether a monitor makes matches: not while it is paused. The one place this is decided: the
 * matcher's index loads and follows only such monitors (src/pipeline), and storing a match
 * checks it again in the storing transaction (`storeMatches`), for a monitor paused since the
 * index last heard of it.
 */
export function monitorMakesMatches() {
  return sql<boolean>`not ${monitors.paused}`;
}
