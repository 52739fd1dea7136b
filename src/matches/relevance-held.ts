/**
 * Whether a match (a row of `matches`, unaliased) is held back by its monitor's relevance
 * threshold: scored under it. Such a match is stored and shown under "Low relevance" in the feed,
 * and neither emailed nor sent to the webhook (the deciders clear its flags). No threshold, or no
 * score (matches stored before relevance was scored), holds nothing back.
 */
export const HELD_BACK_SQL = `coalesce(matches.relevance < (select monitors.relevance_threshold
  from monitors where monitors.id = matches.monitor_id), false)`;
