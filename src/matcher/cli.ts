// npm run --silent match -- --monitors <monitors.jsonl> --items <items.jsonl>  (--help: formats)
// Prints one line per match, {"monitorId","itemId","highlights"}, items in file order and, for
// each item, monitors in file order. Bad input stops it with exit code 2 and a message on
// stderr naming the file, the line and every problem of that line (after the lines of the
// items before it).
// The only module of the matcher doing I/O.
//
// The monitors are split into shards by id (`shardOf`), one per core up to SHARDS, each loaded
// and matched in a worker thread of its own; the main thread merges the shards' lines, so the
// output, the warnings and the first error are what one index would give.

import { on } from 'node:events';
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { basename } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { parseArgs } from 'node:util';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { z } from 'zod';
import {
  createMonitorIndex,
  type MonitorEntry,
  type MonitorIndex,
  type MonitorMatch,
  shardOf,
} from './monitor-index.ts';
import { checkQueryBreadth } from './query-check.ts';
import { parseQuery, QuerySyntaxError } from './query-parser.ts';

const USAGE = 'usage: npm run --silent match -- --monitors <monitors.jsonl> --items <items.jsonl>';

/** What `--help` prints: the usage, both files' line formats with an example, the output. */
const HELP = `${USAGE}

Runs the matching engine on your own data and prints one JSON line per match.

Both files hold one JSON object a line (JSON Lines); blank lines are skipped.

  --monitors  one monitor a line: "id" (a non-empty string, unique in the file) and "query"
              (the query language of docs/query-language.md)
      {"id":"pg","query":"pglite OR \\"embedded postgres\\""}

  --items     one item a line: "id" (a non-empty string), "source" (hackernews, reddit,
              lobsters or devto), "kind" ("post" or "comment"), "createdAt" (ISO 8601), and "title",
              "body", "url", "author", "community" (each a string or null); optionally
              "intents" (an array), "sentiment" and "language" (for intent:, sentiment:, lang:)
      {"id":"hn:1","source":"hackernews","kind":"post","title":"PGlite 1.0","body":null,"url":null,"author":"sam","community":null,"createdAt":"2026-01-01T00:00:00Z"}

Output, one line per match, items in file order and, for each item, monitors in file order:
      {"monitorId":"pg","itemId":"hn:1","highlights":[{"field":"title","start":0,"end":6}]}

A bad line stops the run with exit code 2 and one message naming the file, the line and every
problem of that line; a query that matches almost everything gets a warning on stderr.
`;

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
  // The item's signals, as the pipeline stores them (intent:, sentiment:, lang: read them).
  intents: z.array(z.string()).optional(),
  sentiment: z.string().nullable().optional(),
  language: z.string().nullable().optional(),
  createdAt: z.string(),
});

/** Bytes read from an input file at a time. */
const CHUNK_BYTES = 1 << 20;
/** Characters of output gathered before one write. */
const OUTPUT_CHARS = 1 << 20;
/** Matches a shard holds before it sends their lines (see ShardOutput). */
const BATCH_MATCHES = 1 << 18;

/** Shards at most: two cores take the load's time to about half; more gain less. */
const SHARDS = 2;
/** A monitors file smaller than this (some 50,000 monitors) loads faster in one shard. */
const SHARD_BYTES = 4 << 20;

class InputError extends Error {
  readonly line: number;

  constructor(message: string, line: number) {
    super(message);
    this.line = line;
  }
}

function fail(file: string, line: number, problem: string): never {
  throw new InputError(`${basename(file)} line ${line}: ${problem}`, line);
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
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    fail(file, line, 'expected a JSON object.');
  }
  // Every problem of the line at once, so a bad file is not mended one field per run.
  const problems = parsed.error.issues.map((issue) => {
    const field = issue.path.join('.');
    if (field !== '' && !(field in value)) return `the field "${field}" is missing`;
    return `the field "${field}" is invalid: ${issue.message}`;
  });
  fail(file, line, `${problems.join('; ')}.`);
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

// --- a shard, in a worker thread ------------------------------------------------------------

interface ShardData {
  readonly monitors: string;
  readonly items: string;
  readonly shard: number;
  readonly count: number;
}

/** What stops the run: the message to print, and the line it is about (0: a file that fails). */
interface Problem {
  readonly line: number;
  readonly message: string;
}

type Warning = readonly [line: number, text: string];

type ShardMessage =
  | { readonly type: 'loaded'; readonly warnings: Warning[]; readonly problem: Problem | null }
  | {
      readonly type: 'batch';
      /** Per item, how many of `ranks` and `lines` are its, in file order of the monitors. */
      readonly counts: number[];
      /** Per line, the line number of its monitor in the monitors file. */
      readonly ranks: number[];
      readonly lines: string[];
    }
  | { readonly type: 'end'; readonly problem: Problem | null };

/** The problem of bad input or a file that cannot be read; anything else is a bug, rethrown. */
function problemOf(error: unknown): Problem {
  if (error instanceof InputError) return { line: error.line, message: error.message };
  if (error instanceof Error && 'code' in error && error.code === 'ENOENT') {
    return { line: 0, message: error.message };
  }
  throw error;
}

/** A shard's monitors: ids and their line numbers in file order; `current` is being added. */
interface MonitorFile {
  readonly file: string;
  readonly shard: number;
  readonly count: number;
  readonly ids: string[];
  readonly lines: number[];
  readonly warnings: Warning[];
  current: { id: string; line: number } | null;
}

/**
 * The shard's monitors of a file, checked line by line as they are read, so the bulk load
 * consumes each before the next is parsed and its query tree dies young. Every line is read as
 * JSON (a bad line stops every shard); the query is parsed only by the line's shard. A line's
 * warnings are kept once it is in (the load asks for the next): a repeated id, found by the
 * index, stops the load first, as it did when ids were checked before queries.
 */
function* readMonitors(source: MonitorFile, index: MonitorIndex): Generator<MonitorEntry> {
  const { file, ids, lines } = source;
  const reader = new LineReader(file);
  try {
    for (let text = reader.next(); text !== null; text = reader.next()) {
      if (text.trim() === '') continue;
      const line = reader.line;
      const monitor = parseLine(file, line, text, monitorSchema, isMonitorLine);
      if (shardOf(monitor.id, source.count) !== source.shard) continue;
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
      lines.push(line);
      for (const problem of checkQueryBreadth(query)) {
        source.warnings.push([
          line,
          `${basename(file)} line ${line}: warning: ${problem.message}\n`,
        ]);
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

function loadShard(source: MonitorFile): MonitorIndex {
  // The bulk load, as a worker does at start: it lays the queries out by posting list.
  const index = createMonitorIndex();
  try {
    index.addMany(readMonitors(source, index));
  } catch (error) {
    // The index refuses an id it holds: the monitor being added repeats an earlier line's.
    const current = source.current;
    if (error instanceof InputError || current === null || !index.has(current.id)) throw error;
    duplicate(source.file, current.line, current.id);
  }
  return index;
}

/**
 * The shard's items matched but not yet sent, sent in batches with each match's line and the
 * line number of its monitor. The line numbers are found by one pass over the shard's ids for
 * the whole batch: a map of a million ids would cost more than the matching.
 */
class ShardOutput {
  private readonly items: { id: string; matches: MonitorMatch[] }[] = [];
  private readonly ranks = new Map<string, number>();
  private matchCount = 0;
  private readonly source: MonitorFile;

  constructor(source: MonitorFile) {
    this.source = source;
  }

  /** Takes an item's matches; a batch to send when enough are held. */
  add(itemId: string, matches: MonitorMatch[]): ShardMessage | null {
    this.items.push({ id: itemId, matches });
    for (const match of matches) this.ranks.set(match.monitorId, -1);
    this.matchCount += matches.length;
    return this.matchCount >= BATCH_MATCHES ? this.flush() : null;
  }

  /** The batch of the items held, or null when there are none. */
  flush(): ShardMessage | null {
    const { ranks } = this;
    const { ids, lines } = this.source;
    if (ranks.size > 0) {
      for (let i = 0; i < ids.length; i++) {
        if (ranks.has(ids[i]!)) ranks.set(ids[i]!, lines[i]!);
      }
    }
    const batch = {
      type: 'batch' as const,
      counts: [] as number[],
      ranks: [] as number[],
      lines: [] as string[],
    };
    for (const { id, matches } of this.items) {
      batch.counts.push(matches.length);
      if (matches.length > 0) formatMatches(id, matches, ranks, batch.ranks, batch.lines);
    }
    const items = this.items.length;
    this.items.length = 0;
    ranks.clear();
    this.matchCount = 0;
    return items > 0 ? batch : null;
  }
}

/**
 * Appends the output lines of one item's matches, monitors in file order, and their monitors'
 * line numbers: what `JSON.stringify({ monitorId, itemId, highlights })` prints, with the item's
 * id and each shared highlights array turned into JSON once.
 */
function formatMatches(
  itemId: string,
  matches: MonitorMatch[],
  ranks: Map<string, number>,
  rankOut: number[],
  lineOut: string[],
): void {
  const ranked = matches.map((match) => ({ rank: ranks.get(match.monitorId)!, match }));
  ranked.sort((a, b) => a.rank - b.rank);
  const item = `,"itemId":${JSON.stringify(itemId)},"highlights":`;
  let lastHighlights: MonitorMatch['highlights'] | null = null;
  let highlights = '';
  for (const { rank, match } of ranked) {
    if (match.highlights !== lastHighlights) {
      lastHighlights = match.highlights;
      highlights = JSON.stringify(match.highlights);
    }
    rankOut.push(rank);
    lineOut.push(`{"monitorId":${JSON.stringify(match.monitorId)}${item}${highlights}}\n`);
  }
}

/**
 * What a shard says, in order: its load (warnings, or the problem that stopped it), then, when
 * it loaded, its items' lines in batches and the end (with the problem that stopped it).
 */
function* shardMessages(data: ShardData): Generator<ShardMessage> {
  const source: MonitorFile = {
    file: data.monitors,
    shard: data.shard,
    count: data.count,
    ids: [],
    lines: [],
    warnings: [],
    current: null,
  };
  let index: MonitorIndex;
  try {
    index = loadShard(source);
  } catch (error) {
    yield { type: 'loaded', warnings: source.warnings, problem: problemOf(error) };
    return;
  }
  yield { type: 'loaded', warnings: source.warnings, problem: null };
  const output = new ShardOutput(source);
  let problem: Problem | null = null;
  let reader: LineReader | null = null;
  try {
    reader = new LineReader(data.items, true);
    for (let text = reader.next(); text !== null; text = reader.next()) {
      if (text.trim() === '') continue;
      const item = parseLine(data.items, reader.line, text, itemSchema);
      const batch = output.add(item.id, index.match(item));
      if (batch !== null) yield batch;
    }
  } catch (error) {
    problem = problemOf(error);
  } finally {
    reader?.close();
  }
  // On bad input too: the lines of the items before the bad one are sent.
  const batch = output.flush();
  if (batch !== null) yield batch;
  yield { type: 'end', problem };
}

/** A shard in a worker thread: it sends its messages as they come. */
function runShard(data: ShardData): void {
  for (const message of shardMessages(data)) parentPort!.postMessage(message);
}

// --- the main thread ----------------------------------------------------------------------

/** The earliest of the shards' problems: the one a single pass over the file meets first. */
function firstProblem(problems: (Problem | null)[]): Problem | null {
  let first: Problem | null = null;
  for (const problem of problems) {
    if (problem !== null && (first === null || problem.line < first.line)) first = problem;
  }
  return first;
}

/** One shard's batches as they come: the lines of its next item. */
class ShardLines {
  private readonly messages: Iterator<ShardMessage> | AsyncIterator<ShardMessage>;
  private batch: Extract<ShardMessage, { type: 'batch' }> | null = null;
  private item = 0;
  private line = 0;
  problem: Problem | null = null;
  ended = false;

  constructor(messages: Iterator<ShardMessage> | AsyncIterator<ShardMessage>) {
    this.messages = messages;
  }

  async next(): Promise<ShardMessage> {
    const { value, done } = await this.messages.next();
    if (done) throw new Error('A shard of the match CLI stopped without a word.');
    return value;
  }

  /** Whether the shard has another item, waiting for its next batch if need be. */
  async hasItem(): Promise<boolean> {
    while (!this.ended && (this.batch === null || this.item === this.batch.counts.length)) {
      const message = await this.next();
      if (message.type === 'end') {
        this.ended = true;
        this.problem = message.problem;
      } else if (message.type === 'batch') {
        this.batch = message;
        this.item = 0;
        this.line = 0;
      }
    }
    return !this.ended;
  }

  /** The next item's lines: [from, to) of `ranks` and `lines`. */
  takeItem(): { ranks: number[]; lines: string[]; from: number; to: number } {
    const batch = this.batch!;
    const from = this.line;
    this.line += batch.counts[this.item++]!;
    return { ranks: batch.ranks, lines: batch.lines, from, to: this.line };
  }
}

/** A worker's messages, one by one; rejects when the worker fails. */
async function* workerMessages(worker: Worker): AsyncGenerator<ShardMessage> {
  for await (const [message] of on(worker, 'message')) yield message as ShardMessage;
}

/** How many shards: one per core up to SHARDS for a large file; a small one loads faster alone. */
function shardCount(monitorsFile: string): number {
  let size = 0;
  try {
    size = statSync(monitorsFile).size;
  } catch {
    // The shard that opens it says why it cannot.
  }
  return size < SHARD_BYTES ? 1 : Math.max(1, Math.min(SHARDS, availableParallelism()));
}

async function run(monitorsFile: string, itemsFile: string): Promise<number> {
  const count = shardCount(monitorsFile);
  const data = (shard: number): ShardData => ({
    monitors: monitorsFile,
    items: itemsFile,
    shard,
    count,
  });
  const workers =
    count === 1
      ? []
      : Array.from(
          { length: count },
          (_, shard) => new Worker(new URL(import.meta.url), { workerData: data(shard) }),
        );
  const shards =
    count === 1
      ? [new ShardLines(shardMessages(data(0)))]
      : workers.map((worker) => new ShardLines(workerMessages(worker)));
  try {
    const loads = await Promise.all(shards.map((shard) => shard.next()));
    const warnings: Warning[] = [];
    const problems: (Problem | null)[] = [];
    for (const load of loads) {
      if (load.type !== 'loaded') throw new Error(`A shard sent ${load.type} before loading.`);
      warnings.push(...load.warnings);
      problems.push(load.problem);
    }
    const problem = firstProblem(problems);
    const shown = warnings.filter(([line]) => problem === null || line < problem.line);
    shown.sort((a, b) => a[0] - b[0]);
    if (shown.length > 0) process.stderr.write(shown.map(([, text]) => text).join(''));
    if (problem !== null) {
      process.stderr.write(`${problem.message}\n`);
      return 2;
    }
    // Every shard reads every item, so they end together; an item's lines are merged by the
    // line numbers of their monitors. Written a large chunk at a time.
    let out = '';
    for (;;) {
      let more = true;
      for (const shard of shards) more = (await shard.hasItem()) && more;
      if (!more) break;
      const parts = shards.map((shard) => shard.takeItem());
      for (;;) {
        let best = -1;
        for (let k = 0; k < parts.length; k++) {
          const part = parts[k]!;
          if (part.from === part.to) continue;
          if (best < 0 || part.ranks[part.from]! < parts[best]!.ranks[parts[best]!.from]!) best = k;
        }
        if (best < 0) break;
        const part = parts[best]!;
        out += part.lines[part.from++]!;
      }
      if (out.length >= OUTPUT_CHARS) {
        process.stdout.write(out);
        out = '';
      }
    }
    process.stdout.write(out);
    const end = firstProblem(shards.map((shard) => shard.problem));
    if (end !== null) {
      process.stderr.write(`${end.message}\n`);
      return 2;
    }
    return 0;
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
}

async function main(): Promise<number> {
  let values: {
    monitors?: string | undefined;
    items?: string | undefined;
    help?: boolean | undefined;
  };
  try {
    values = parseArgs({
      options: {
        monitors: { type: 'string' },
        items: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }).values;
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n${USAGE}\n`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  if (values.monitors === undefined || values.items === undefined) {
    process.stderr.write(`${USAGE}\n(--help says what the files hold)\n`);
    return 2;
  }
  return run(values.monitors, values.items);
}

if (isMainThread) process.exitCode = await main();
else runShard(workerData as ShardData);
