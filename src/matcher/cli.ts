// npm run --silent match -- --monitors <monitors.jsonl> --items <items.jsonl>
// Prints one line per match, {"monitorId","itemId","highlights"}, items in file order and, for
// each item, monitors in file order. Bad input stops it with exit code 2 and a message on
// stderr naming the file, the line and the problem (after the lines of the items before it).
// The only module of the matcher doing I/O.

import { closeSync, openSync, readSync } from 'node:fs';
import { basename } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import {
  createMonitorIndex,
  type MonitorEntry,
  type MonitorIndex,
  type MonitorMatch,
} from './monitor-index.ts';
import { checkQueryBreadth } from './query-check.ts';
import { parseQuery, QuerySyntaxError } from './query-parser.ts';

const USAGE = 'usage: npm run --silent match -- --monitors <monitors.jsonl> --items <items.jsonl>';

const monitorSchema = z.object({ id: z.string().min(1), query: z.string() });
type MonitorLine = z.infer<typeof monitorSchema>;
/** What `monitorSchema` accepts, checked without it (the value is only read, not kept). */
const isMonitorLine = (value: unknown): value is MonitorLine =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as MonitorLine).id === 'string' &&
  (value as MonitorLine).id !== '' &&
  typeof (value as MonitorLine).query === 'string';
const itemSchema = z.object({
  id: z.string().min(1),
  source: z.string(),
  kind: z.enum(['post', 'comment']),
  title: z.string().nullable(),
  body: z.string().nullable(),
  url: z.string().nullable(),
  author: z.string().nullable(),
  community: z.string().nullable(),
  createdAt: z.string(),
});

/** Bytes read from an input file at a time. */
const CHUNK_BYTES = 1 << 20;
/** Characters of output gathered before one write. */
const OUTPUT_CHARS = 1 << 20;
/** Matches held before their lines are printed (see PendingOutput). */
const BATCH_MATCHES = 1 << 18;

class InputError extends Error {}

function fail(file: string, line: number, problem: string): never {
  throw new InputError(`${basename(file)} line ${line}: ${problem}`);
}

/**
 * The value of one line, checked by `schema`; `accepts` may vouch for it first, faster (it must
 * accept only what the schema accepts unchanged).
 */
function parseLine<T>(
  file: string,
  line: number,
  text: string,
  schema: z.ZodType<T>,
  accepts?: (value: unknown) => value is T,
): T {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    fail(file, line, `not valid JSON (${error instanceof Error ? error.message : String(error)}).`);
  }
  if (accepts?.(value)) return value;
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue?.path.join('.') ?? '';
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    fail(file, line, 'expected a JSON object.');
  }
  if (field !== '' && !(field in value)) fail(file, line, `the field "${field}" is missing.`);
  fail(file, line, `the field "${field}" is invalid: ${issue?.message ?? 'unexpected value'}.`);
}

/**
 * The lines of a file, read in chunks so that a large file is never held whole. Lines end at "\n"
 * (a "\r" before it stays on the line); with `crEnds`, at "\r\n", "\n" or a lone "\r", as
 * `node:readline` splits them. `line` is the number (from 1) of the line `next` returned last.
 */
class LineReader {
  line = 0;
  private readonly fd: number;
  private readonly crEnds: boolean;
  private readonly decoder = new StringDecoder('utf8');
  private readonly chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  private text = '';
  private from = 0;
  private atEnd = false;
  private closed = false;
  // The rest of a line split at lone "\r"s, last first.
  private readonly pieces: string[] = [];

  constructor(file: string, crEnds = false) {
    this.fd = openSync(file, 'r');
    this.crEnds = crEnds;
  }

  /** The next line, or null at the end of the file. */
  next(): string | null {
    if (this.pieces.length > 0) return this.counted(this.pieces.pop()!);
    for (;;) {
      const end = this.text.indexOf('\n', this.from);
      if (end >= 0) {
        const line = this.text.slice(this.from, end);
        this.from = end + 1;
        return this.split(line);
      }
      const rest = this.text.slice(this.from);
      this.from = 0;
      if (this.atEnd) {
        this.text = '';
        return rest === '' ? null : this.split(rest);
      }
      const read = readSync(this.fd, this.chunk, 0, CHUNK_BYTES, null);
      if (read > 0) {
        this.text = rest + this.decoder.write(this.chunk.subarray(0, read));
      } else {
        this.text = rest + this.decoder.end();
        this.atEnd = true;
      }
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
  }

  private counted(text: string): string {
    this.line++;
    return text;
  }

  private split(text: string): string {
    if (!this.crEnds || !text.includes('\r')) return this.counted(text);
    const parts = text.split('\r');
    // A last "\r" was the first half of "\r\n", or ended the file: it ends the line before it.
    if (parts.at(-1) === '') parts.pop();
    for (let i = parts.length - 1; i > 0; i--) this.pieces.push(parts[i]!);
    return this.counted(parts[0]!);
  }
}

/** The monitors of a file and their ids in file order; `current` is the one being added. */
interface MonitorFile {
  readonly file: string;
  readonly ids: string[];
  current: { id: string; line: number } | null;
}

/**
 * The monitors of a file, checked line by line as they are read, so the bulk load consumes each
 * before the next is parsed and its query tree dies young. A line's warnings are printed once it
 * is in (the load asks for the next): a duplicate id, found by the index, stops the load first,
 * as it did when the id was checked before the query.
 */
function* readMonitors(source: MonitorFile, index: MonitorIndex): Generator<MonitorEntry> {
  const { file, ids } = source;
  const reader = new LineReader(file);
  try {
    for (let text = reader.next(); text !== null; text = reader.next()) {
      if (text.trim() === '') continue;
      const line = reader.line;
      const monitor = parseLine(file, line, text, monitorSchema, isMonitorLine);
      let query: ReturnType<typeof parseQuery>;
      try {
        query = parseQuery(monitor.query);
      } catch (error) {
        if (!(error instanceof QuerySyntaxError)) throw error;
        if (index.has(monitor.id)) duplicate(file, line, monitor.id);
        fail(
          file,
          line,
          `the query ${JSON.stringify(monitor.query)} does not parse: ${error.message} (at character ${error.position + 1})`,
        );
      }
      source.current = { id: monitor.id, line };
      yield { id: monitor.id, query };
      ids.push(monitor.id);
      for (const problem of checkQueryBreadth(query)) {
        process.stderr.write(`${basename(file)} line ${line}: warning: ${problem.message}\n`);
      }
    }
    source.current = null;
  } finally {
    reader.close();
  }
}

function duplicate(file: string, line: number, id: string): never {
  fail(file, line, `the monitor id "${id}" appears twice.`);
}

function loadMonitors(file: string): { index: MonitorIndex; ids: string[] } {
  // The bulk load, as a worker does at start: it lays the queries out by posting list.
  const index = createMonitorIndex();
  const source: MonitorFile = { file, ids: [], current: null };
  try {
    index.addMany(readMonitors(source, index));
  } catch (error) {
    // The index refuses an id it holds: the monitor being added repeats an earlier line's.
    const current = source.current;
    if (error instanceof InputError || current === null || !index.has(current.id)) throw error;
    duplicate(file, current.line, current.id);
  }
  return { index, ids: source.ids };
}

/**
 * The items matched but not yet printed, printed in batches: an item's monitors are printed in
 * file order, and a monitor's line is found by one pass over the ids in file order for the whole
 * batch (a map of a million ids would cost more than the matching).
 */
class PendingOutput {
  private readonly items: { id: string; matches: MonitorMatch[] }[] = [];
  private readonly ranks = new Map<string, number>();
  private matchCount = 0;
  private readonly ids: readonly string[];

  constructor(ids: readonly string[]) {
    this.ids = ids;
  }

  add(itemId: string, matches: MonitorMatch[]): void {
    if (matches.length === 0) return;
    this.items.push({ id: itemId, matches });
    for (const match of matches) this.ranks.set(match.monitorId, -1);
    this.matchCount += matches.length;
    if (this.matchCount >= BATCH_MATCHES) this.flush();
  }

  /** Prints the pending items' lines, a large chunk a write. */
  flush(): void {
    const { ids, ranks } = this;
    if (ranks.size > 0) {
      for (let rank = 0; rank < ids.length; rank++) {
        if (ranks.has(ids[rank]!)) ranks.set(ids[rank]!, rank);
      }
    }
    let out = '';
    for (const { id, matches } of this.items) {
      out += formatMatches(id, matches, ranks);
      if (out.length >= OUTPUT_CHARS) {
        process.stdout.write(out);
        out = '';
      }
    }
    if (out !== '') process.stdout.write(out);
    this.items.length = 0;
    ranks.clear();
    this.matchCount = 0;
  }
}

/**
 * The output lines of one item's matches, monitors in file order: what
 * `JSON.stringify({ monitorId, itemId, highlights })` prints, with the item's id and each shared
 * highlights array turned into JSON once.
 */
function formatMatches(
  itemId: string,
  matches: MonitorMatch[],
  ranks: Map<string, number>,
): string {
  const ranked = matches.map((match) => ({ rank: ranks.get(match.monitorId)!, match }));
  ranked.sort((a, b) => a.rank - b.rank);
  const item = `,"itemId":${JSON.stringify(itemId)},"highlights":`;
  let lines = '';
  let lastHighlights: MonitorMatch['highlights'] | null = null;
  let highlights = '';
  for (const { match } of ranked) {
    if (match.highlights !== lastHighlights) {
      lastHighlights = match.highlights;
      highlights = JSON.stringify(match.highlights);
    }
    lines += `{"monitorId":${JSON.stringify(match.monitorId)}${item}${highlights}}\n`;
  }
  return lines;
}

function run(monitorsFile: string, itemsFile: string): void {
  const { index, ids } = loadMonitors(monitorsFile);
  const output = new PendingOutput(ids);
  const reader = new LineReader(itemsFile, true);
  try {
    for (let text = reader.next(); text !== null; text = reader.next()) {
      if (text.trim() === '') continue;
      const item = parseLine(itemsFile, reader.line, text, itemSchema);
      output.add(item.id, index.match(item));
    }
  } finally {
    reader.close();
    // On bad input too: the lines of the items before the bad one are printed.
    output.flush();
  }
}

async function main(): Promise<number> {
  let values: { monitors?: string | undefined; items?: string | undefined };
  try {
    values = parseArgs({
      options: { monitors: { type: 'string' }, items: { type: 'string' } },
    }).values;
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n${USAGE}\n`);
    return 2;
  }
  if (values.monitors === undefined || values.items === undefined) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  try {
    run(values.monitors, values.items);
    return 0;
  } catch (error) {
    if (error instanceof InputError) {
      process.stderr.write(`${error.message}\n`);
      return 2;
    }
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') {
      process.stderr.write(`${error.message}\n`);
      return 2;
    }
    throw error;
  }
}

process.exitCode = await main();
