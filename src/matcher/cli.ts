// npm run --silent match -- --monitors <monitors.jsonl> --items <items.jsonl>
// Prints one line per match, {"monitorId","itemId","highlights"}, items in file order and, for
// each item, monitors in file order. Bad input stops it with exit code 2 and a message on
// stderr naming the file, the line and the problem. The only module of the matcher doing I/O.

import { createReadStream, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { createMonitorIndex } from './monitor-index.ts';
import { checkQueryBreadth } from './query-check.ts';
import { parseQuery, QuerySyntaxError } from './query-parser.ts';

const USAGE = 'usage: npm run --silent match -- --monitors <monitors.jsonl> --items <items.jsonl>';

const monitorSchema = z.object({ id: z.string().min(1), query: z.string() });
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

class InputError extends Error {}

function fail(file: string, line: number, problem: string): never {
  throw new InputError(`${basename(file)} line ${line}: ${problem}`);
}

function parseLine<T>(file: string, line: number, text: string, schema: z.ZodType<T>): T {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    fail(file, line, `not valid JSON (${error instanceof Error ? error.message : String(error)}).`);
  }
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

function loadMonitors(file: string) {
  const index = createMonitorIndex();
  const order = new Map<string, number>();
  const lines = readFileSync(file, 'utf8').split('\n');
  lines.forEach((text, at) => {
    if (text.trim() === '') return;
    const line = at + 1;
    const monitor = parseLine(file, line, text, monitorSchema);
    if (order.has(monitor.id)) fail(file, line, `the monitor id "${monitor.id}" appears twice.`);
    let query: ReturnType<typeof parseQuery>;
    try {
      query = parseQuery(monitor.query);
    } catch (error) {
      if (!(error instanceof QuerySyntaxError)) throw error;
      fail(
        file,
        line,
        `the query ${JSON.stringify(monitor.query)} does not parse: ${error.message} (at character ${error.position + 1})`,
      );
    }
    for (const problem of checkQueryBreadth(query)) {
      process.stderr.write(`${basename(file)} line ${line}: warning: ${problem.message}\n`);
    }
    order.set(monitor.id, order.size);
    index.add(monitor.id, query);
  });
  return { index, order };
}

async function run(monitorsFile: string, itemsFile: string): Promise<void> {
  const { index, order } = loadMonitors(monitorsFile);
  const lines = createInterface({ input: createReadStream(itemsFile), crlfDelay: Infinity });
  let line = 0;
  let out = '';
  for await (const text of lines) {
    line++;
    if (text.trim() === '') continue;
    const item = parseLine(itemsFile, line, text, itemSchema);
    const matches = index.match(item);
    matches.sort((a, b) => order.get(a.monitorId)! - order.get(b.monitorId)!);
    for (const match of matches) {
      out += `${JSON.stringify({ monitorId: match.monitorId, itemId: item.id, highlights: match.highlights })}\n`;
    }
    if (out.length > 1 << 16) {
      if (!process.stdout.write(out)) {
        await new Promise((resolve) => process.stdout.once('drain', resolve));
      }
      out = '';
    }
  }
  process.stdout.write(out);
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
    await run(values.monitors, values.items);
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
