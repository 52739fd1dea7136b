import { stringify } from 'csv-stringify/sync';
import type { Database } from '../db/client.ts';
import { type ListMatchesQuery, MATCH_PAGE_MAX, type Match } from '../shared/match.ts';
import { listMatches } from './list-matches.ts';

/** The columns of the export, in order; the header row is these names. */
const COLUMNS = [
  'id',
  'matchedAt',
  'itemCreatedAt',
  'source',
  'kind',
  'community',
  'title',
  'author',
  'snippet',
  'permalink',
  'url',
  'intents',
  'sentiment',
  'language',
  'monitorId',
  'read',
  'rating',
  'relevance',
] as const satisfies readonly (keyof Match)[];

/**
 * A spreadsheet runs a cell that starts with = + - @ (or a tab or carriage return) as a formula
 * (OWASP "CSV injection"); such a cell gets a leading apostrophe, which spreadsheets show as text.
 */
export function neutraliseFormula(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/**
 * Every match of the filters (not one page) as RFC 4180 CSV, newest first, as a stream: one page
 * of the feed (100 matches) is read and written at a time, so memory stays the same whatever the
 * count. The filters are the feed's (`listMatches`), so the export is what the Alerts page shows.
 */
export function exportMatchesCsv(
  ctx: { db: Database },
  input: { userId: string; filters: Omit<ListMatchesQuery, 'cursor' | 'limit' | 'sort'> },
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let cursor: string | undefined;
  let first = true;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const query = {
          ...input.filters,
          sort: 'time' as const,
          limit: MATCH_PAGE_MAX,
          ...(cursor ? { cursor } : {}),
        };
        const page = await listMatches(ctx, { userId: input.userId, query });
        const rows = page.items.map((match) =>
          COLUMNS.map((column) => {
            const value = match[column];
            return value === null ? '' : neutraliseFormula(String(value));
          }),
        );
        const text = stringify(first ? [[...COLUMNS], ...rows] : rows, {
          record_delimiter: '\r\n',
        });
        first = false;
        if (text) controller.enqueue(encoder.encode(text));
        if (!page.nextCursor) controller.close();
        else cursor = page.nextCursor;
      },
    },
    { highWaterMark: 1 },
  );
}
