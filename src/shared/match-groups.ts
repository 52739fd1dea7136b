import { HIT_FIELDS, type HitField, type Match } from './match.ts';

/**
 * One post, one alert (docs/product.md, "Matches and alerts"): the matches of one item, however
 * many of the user's monitors caught it. Matches stay stored one per monitor and item (each
 * monitor's counts, filters, webhooks and read flags keep working); readers group them.
 */
export type MatchGroup = {
  /** The item: its site and its permalink. */
  readonly key: string;
  /** The group's first match (the newest in a feed): the item as the group shows it. */
  readonly match: Match;
  /** Every match of the item, in the order given. */
  readonly matches: readonly Match[];
  /** The monitors that caught it, each once, in the order of their first match. */
  readonly monitorIds: readonly string[];
  /** Read only when every match of it is. */
  readonly read: boolean;
  /** Where any of its monitors' terms hit. */
  readonly hitFields: readonly HitField[];
  /** The hits of every monitor in the title. */
  readonly titleHighlights: readonly (readonly [number, number])[];
  /** The snippet shown: the first that is not empty (one monitor hit the URL, another the title). */
  readonly snippet: string;
  /** The hits in `snippet`: every monitor's whose snippet is that text. */
  readonly highlights: readonly (readonly [number, number])[];
};

export const matchItemKey = (match: Pick<Match, 'source' | 'permalink'>): string =>
  `${match.source} ${match.permalink}`;

/** Groups matches by item, in the order of each item's first match. */
export function groupMatchesByItem(matches: readonly Match[]): MatchGroup[] {
  const byKey = new Map<string, Match[]>();
  for (const match of matches) {
    const key = matchItemKey(match);
    const group = byKey.get(key);
    if (group) group.push(match);
    else byKey.set(key, [match]);
  }
  return [...byKey].map(([key, all]) => {
    const first = all[0] as Match;
    const snippet = all.find((match) => match.snippet !== '')?.snippet ?? '';
    return {
      key,
      match: first,
      matches: all,
      monitorIds: [...new Set(all.map((match) => match.monitorId))],
      read: all.every((match) => match.read),
      hitFields: HIT_FIELDS.filter((field) => all.some((match) => match.hitFields.includes(field))),
      titleHighlights: all.flatMap((match) => match.titleHighlights),
      snippet,
      highlights: all
        .filter((match) => match.snippet === snippet)
        .flatMap((match) => match.highlights),
    };
  });
}
