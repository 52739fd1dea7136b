// The matcher benchmark's workload: the recorded real items, and monitor sets of a realistic
// shape drawn with a Zipf distribution from a large vocabulary. Everything is seeded, so every
// process of a run (and every run) sees the same items and the same monitors.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MatchableItem } from '../src/matcher/monitor-index.ts';
import { STOP_WORDS } from '../src/matcher/stop-words.ts';
import { listWords } from '../src/matcher/text.ts';

export interface BenchItem extends MatchableItem {
  readonly id: string;
}

const ITEMS_FILE = join(import.meta.dirname, '..', 'tests', 'fixtures', 'items', 'items.jsonl');

/** The normalised items of tests/fixtures/recorded (3,086 posts and comments). */
export function loadItems(): BenchItem[] {
  return readFileSync(ITEMS_FILE, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as BenchItem);
}

/** The bytes of item text a matcher reads: title, body and URL in UTF-8. */
export function textBytes(items: readonly MatchableItem[]): number {
  let bytes = 0;
  for (const item of items) {
    bytes += Buffer.byteLength(item.title ?? '') + Buffer.byteLength(item.body ?? '');
    bytes += Buffer.byteLength(item.url ?? '');
  }
  return bytes;
}

/** mulberry32: small, fast, and good enough to draw a workload. */
export function createRandom(seed: number): () => number {
  let state = seed | 0;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYLLABLES = [
  'ka',
  'zen',
  'tro',
  'lix',
  'mo',
  'qua',
  'ver',
  'dax',
  'nim',
  'bo',
  'rel',
  'sy',
  'pha',
  'gon',
  'tu',
  'xel',
  'fi',
  'or',
  'ly',
  'zu',
  'pra',
  'vi',
  'ston',
  'ek',
];
const BRAND_SUFFIXES = ['labs', 'cloud', 'ai', 'db', 'app', 'hq', 'io', 'pay', 'os', 'js'];
const PUNCTUATED = ['c++', 'c#', 'node.js', '.net', '$tsla', 'e-mail', 'asp.net', 'vue.js'];
const SOURCES = ['hackernews', 'reddit', 'lobsters'];

export const VOCABULARY_SIZE = 1_000_000;

/**
 * A vocabulary of 1,000,000 terms in order of popularity among monitors: every word of the
 * recorded items that is not a stop word, and made-up brand names ("zentrixly") for the rest,
 * shuffled together: how popular a term is as a monitor does not follow how common it is in text.
 */
export function buildVocabulary(items: readonly BenchItem[], seed = 7): string[] {
  const words = new Set<string>();
  for (const item of items) {
    for (const field of [item.title, item.body]) {
      for (const word of listWords(field ?? '')) {
        if (!STOP_WORDS.has(word.text) && word.text.length > 1) words.add(word.text);
      }
    }
  }
  const random = createRandom(seed);
  const vocabulary = [...words];
  const taken = new Set(vocabulary);
  while (vocabulary.length < VOCABULARY_SIZE) {
    let name = '';
    const parts = 2 + Math.floor(random() * 3);
    for (let i = 0; i < parts; i++) name += SYLLABLES[Math.floor(random() * SYLLABLES.length)];
    if (taken.has(name)) name += vocabulary.length.toString(36);
    taken.add(name);
    vocabulary.push(name);
  }
  for (let i = vocabulary.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [vocabulary[i], vocabulary[j]] = [vocabulary[j]!, vocabulary[i]!];
  }
  return vocabulary;
}

/** Draws ranks 0 … size − 1 with P(rank r) ∝ 1 / (r + 1)^exponent. */
export function createZipf(size: number, exponent: number, random: () => number): () => number {
  const cumulative = new Float64Array(size);
  let total = 0;
  for (let r = 0; r < size; r++) {
    total += 1 / (r + 1) ** exponent;
    cumulative[r] = total;
  }
  return () => {
    const u = random() * total;
    let low = 0;
    let high = size - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (cumulative[middle]! < u) low = middle + 1;
      else high = middle;
    }
    return low;
  };
}

export interface Monitor {
  readonly id: string;
  readonly query: string;
}

/**
 * `text` as the pipeline gets it from PostgreSQL: the driver decodes every value from the bytes
 * it received, so it is one flat string. Strings built here by concatenation would be V8 "cons"
 * strings (ropes) that whoever reads them first has to flatten, copying every one, a cost a real
 * load never pays (and which made up a third of the engine's build time at 1 M monitors).
 */
function fromStorage(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8');
}

function uuid(random: () => number): string {
  const hex = (n: number) =>
    Array.from({ length: n }, () => Math.floor(random() * 16).toString(16)).join('');
  return `${hex(8)}-${hex(4)}-4${hex(3)}-8${hex(3)}-${hex(12)}`;
}

/**
 * `count` monitors with UUID ids: 40% single words, 15% brand names ("zentrix labs"), 22%
 * phrases of 2–3 words, 8% OR of 2–3 words, 7% a word with an exclusion, 3% two words, 5%
 * filters, prefixes and punctuated terms (title:, site:, subreddit:, rust*, c++).
 */
export function generateMonitors(
  vocabulary: readonly string[],
  count: number,
  seed: number,
): Monitor[] {
  const random = createRandom(seed);
  const zipf = createZipf(vocabulary.length, 1, random);
  const term = () => vocabulary[zipf()]!;
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const monitors: Monitor[] = [];
  for (let i = 0; i < count; i++) {
    const r = random();
    let query: string;
    if (r < 0.4) query = term();
    else if (r < 0.55) query = `"${term()} ${pick(BRAND_SUFFIXES)}"`;
    else if (r < 0.77)
      query = random() < 0.7 ? `"${term()} ${term()}"` : `"${term()} ${term()} ${term()}"`;
    else if (r < 0.85)
      query = random() < 0.7 ? `${term()} OR ${term()}` : `${term()} OR ${term()} OR ${term()}`;
    else if (r < 0.92) query = `${term()} -${term()}`;
    else if (r < 0.95) query = `${term()} ${term()}`;
    else if (r < 0.96) query = `title:${term()}`;
    else if (r < 0.97) query = `site:${pick(SOURCES)} ${term()}`;
    else if (r < 0.98) query = `subreddit:${term()} ${term()}`;
    else if (r < 0.99) {
      const word = term();
      query = word.length >= 5 ? `${word.slice(0, 4)}*` : word;
    } else query = pick(PUNCTUATED);
    monitors.push({ id: fromStorage(uuid(random)), query: fromStorage(query) });
  }
  return monitors;
}
