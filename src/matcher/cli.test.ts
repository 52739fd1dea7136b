import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..', '..');
const cli = join(root, 'src', 'matcher', 'cli.ts');
const items = join(root, 'tests', 'fixtures', 'items', 'items.jsonl');
const everyday = join(root, 'tests', 'fixtures', 'monitors', 'everyday.jsonl');

interface Line {
  monitorId: string;
  itemId: string;
  highlights: { field: string; start: number; end: number }[];
}

async function match(monitors: string, itemsFile = items) {
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      [cli, '--monitors', monitors, '--items', itemsFile],
      {
        maxBuffer: 64 << 20,
      },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const scratch = mkdtempSync(join(tmpdir(), 'earshot-match-'));
function file(name: string, lines: string[]): string {
  const path = join(scratch, name);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

describe('match CLI on the recorded data', async () => {
  const { code, stdout, stderr } = await match(everyday);
  const lines: Line[] = stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  const found = (monitorId: string) =>
    lines
      .filter((l) => l.monitorId === monitorId)
      .map((l) => l.itemId)
      .sort();

  it('prints only match lines and exits 0', () => {
    expect(code).toBe(0);
    expect(stderr).toBe('');
    for (const line of lines)
      expect(Object.keys(line)).toEqual(['monitorId', 'itemId', 'highlights']);
  });

  // The expected ids were found by reading the recorded items by hand and cross-checked with an
  // independent regular-expression scan (words bounded by non-letters, accents folded).
  it.each([
    ['hn-dropbox', ['hackernews:8863']], // "My YC app: Dropbox - Throw away your USB drive"
    ['bitcoin', ['hackernews:13163099']], // "Bitcoin Startup Adds Former Barclays Chief…"
    ['askreddit-cat', ['reddit:t3_48fabd']], // r/AskReddit "Why does cat piss smell so … foul?"
    // "open-source" in a GitHub URL of the Diia story, and "the site is open source".
    ['open-source', ['lobsters:fmilri', 'reddit:t1_c365l3y']],
    // "…Semantics to C++", "rewrote Viaweb in C++", "implemented in C/C++?"; never "C" alone.
    ['cpp', ['lobsters:pbqail', 'reddit:t1_c14zev', 'reddit:t1_cbwq5']],
    [
      'rust-not-game',
      [
        'lobsters:jhyhos',
        'lobsters:ktyp2q',
        'lobsters:lfg3lj',
        'lobsters:ocadne',
        'lobsters:sufwry',
        'lobsters:t4ssxd',
        'lobsters:tnvk82',
        'lobsters:u2rvqe',
        'lobsters:vvky3g',
      ],
    ],
    // The same without "2024 State of Rust Survey Results".
    [
      'rust-not-survey',
      [
        'lobsters:jhyhos',
        'lobsters:ktyp2q',
        'lobsters:lfg3lj',
        'lobsters:ocadne',
        'lobsters:sufwry',
        'lobsters:t4ssxd',
        'lobsters:tnvk82',
        'lobsters:u2rvqe',
      ],
    ],
    [
      'apple-or-microsoft',
      [
        'lobsters:3h6mpx',
        'reddit:t1_c03jcq8',
        'reddit:t1_c364wbz',
        'reddit:t1_c3652x0',
        'reddit:t1_cb5w3',
        'reddit:t3_48ch3r',
        'reddit:t3_48dnk1',
        'reddit:t3_5jo13m',
        'reddit:t3_7b7clr',
        'reddit:t3_dr09w3',
      ],
    ],
  ])('%s finds exactly the items a reader finds', (monitorId, expected) => {
    expect(found(monitorId)).toEqual(expected);
  });

  it.each([
    ['google', 18],
    ['title-trump', 43], // titles only: the 2016 and 2020 front pages
    ['youtube-link', 136], // the /domain/youtube.com listing plus youtube.com links elsewhere
    ['spez', 185], // u/spez's overview pages that say "reddit"
    ['kakapo', 17], // the unique comments of r/kakapo
    ['python-js', 17],
    ['programming-prefix', 28],
    ['lobsters-rust', 9],
  ])('%s finds %i items', (monitorId, count) => {
    expect(found(monitorId)).toHaveLength(count);
  });

  it('does not take "trust", "Crustaceans" or "Rustproofing" for rust', () => {
    for (const id of ['reddit:t1_d4y8bb8', 'lobsters:0q8v2t', 'lobsters:htoqsj']) {
      expect(found('rust-not-game')).not.toContain(id);
    }
  });

  it('gives highlights that point at the words in the item', () => {
    const hit = lines.find((l) => l.monitorId === 'hn-dropbox')!;
    // "My YC app: " is 11 characters long.
    expect(hit.highlights).toEqual([{ field: 'title', start: 11, end: 18 }]);
  });
});

describe('match CLI on bad input', () => {
  it.each([
    [
      'a line that is not JSON',
      ['{"id":"a","query":"rust"}', '{nope'],
      'monitors.jsonl line 2: not valid JSON',
    ],
    ['a missing field', ['{"id":"a"}'], 'monitors.jsonl line 1: the field "query" is missing.'],
    [
      'a duplicate id',
      ['{"id":"a","query":"x"}', '{"id":"a","query":"y"}'],
      'monitors.jsonl line 2: the monitor id "a" appears twice.',
    ],
    [
      'a query that does not parse',
      ['{"id":"a","query":"\\"open source"}'],
      'monitors.jsonl line 1: the query "\\"open source" does not parse: A closing quote is missing after \u201copen source\u201d. (at character 1)',
    ],
  ])('stops with exit code 2 on %s in the monitors', async (_, content, message) => {
    const result = await match(file('monitors.jsonl', content));
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(message);
  });

  it('stops with exit code 2 on an item that misses a field', async () => {
    const monitors = file('ok.jsonl', ['{"id":"a","query":"rust"}']);
    const bad = file('items.jsonl', [
      '{"id":"1","source":"reddit","kind":"post","title":"rust","body":"","url":null,"author":null,"community":null,"createdAt":"2024-01-01T00:00:00Z"}',
      '{"id":"2","source":"reddit","kind":"post","title":"rust","url":null,"author":null,"community":null,"createdAt":"2024-01-01T00:00:00Z"}',
    ]);
    const result = await match(monitors, bad);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('items.jsonl line 2: the field "body" is missing.');
    expect(result.stdout.trim().split('\n')).toHaveLength(1);
  });

  it('names every problem of a bad line at once', async () => {
    const monitors = file('ok.jsonl', ['{"id":"a","query":"rust"}']);
    const bad = file('items.jsonl', [
      '{"id":"1","source":"reddit","kind":"story","url":null,"author":null,"community":null,"createdAt":"2024-01-01T00:00:00Z"}',
    ]);
    const result = await match(monitors, bad);
    expect(result.code).toBe(2);
    const message = result.stderr.trim();
    expect(message).toMatch(/^items\.jsonl line 1: /);
    expect(message).toContain('the field "kind" is invalid');
    expect(message).toContain('the field "title" is missing');
    expect(message).toContain('the field "body" is missing');
    expect(message.split('\n')).toHaveLength(1);
  });

  it('stops with exit code 2 without its arguments', async () => {
    const result = await run(process.execPath, [cli]).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(result).toMatchObject({ code: 2 });
    expect((result as { stderr: string }).stderr).toContain('usage:');
  });
});

describe('match CLI --help', () => {
  it('prints the usage and both line formats, with examples that run as shown', async () => {
    const { stdout } = await run(process.execPath, [cli, '--help']);
    expect(stdout).toMatch(/^usage: npm run --silent match -- --monitors /);
    expect(stdout).toContain('--monitors  one monitor a line');
    expect(stdout).toContain('--items     one item a line');
    // The three example lines: a monitor, an item, and the line the CLI prints for them.
    const examples = stdout
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line.startsWith('{'));
    expect(examples).toHaveLength(3);
    const [monitor, item, output] = examples as [string, string, string];
    const result = await match(
      file('help-monitors.jsonl', [monitor]),
      file('help-items.jsonl', [item]),
    );
    expect(result).toEqual({ code: 0, stdout: `${output}\n`, stderr: '' });
  });
});
