// Builds tests/fixtures/items/items.jsonl, the normalised items of the recorded replay data in
// tests/fixtures/recorded, one JSON object per line, each with `id` = `<source>:<externalId>`.
// Run: node scripts/build-item-fixtures.ts   (the output is committed; rerun after a normaliser change)

import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { normaliseHackerNewsItem } from '../src/sources/hacker-news/normalise.ts';
import { normaliseLobstersResponse } from '../src/sources/lobsters/normalise.ts';
import type { NormaliseResult } from '../src/sources/normalised-item.ts';
import { normaliseRedditListing } from '../src/sources/reddit/normalise.ts';

const root = join(import.meta.dirname, '..', 'tests', 'fixtures');
const recorded = join(root, 'recorded');
const output = join(root, 'items', 'items.jsonl');

function normaliseFile(file: string): NormaliseResult[] {
  const text = readFileSync(join(recorded, file), 'utf8');
  if (file === 'hn-items.jsonl') {
    return text
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => normaliseHackerNewsItem(JSON.parse(line)));
  }
  if (file.startsWith('reddit-') && file !== 'reddit-manifest.json') {
    return normaliseRedditListing(JSON.parse(text));
  }
  if (file.startsWith('lobsters-')) return normaliseLobstersResponse(JSON.parse(text));
  return [];
}

const seen = new Set<string>();
const lines: string[] = [];
const skips = new Map<string, number>();
for (const file of readdirSync(recorded).sort()) {
  for (const result of normaliseFile(file)) {
    if (result.status === 'skipped') {
      skips.set(result.reason, (skips.get(result.reason) ?? 0) + 1);
      continue;
    }
    const id = `${result.item.source}:${result.item.externalId}`;
    if (seen.has(id)) continue;
    seen.add(id);
    lines.push(JSON.stringify({ id, ...result.item }));
  }
}
mkdirSync(join(root, 'items'), { recursive: true });
writeFileSync(output, `${lines.join('\n')}\n`);
process.stdout.write(
  `${lines.length} items written to ${output}; skipped: ${JSON.stringify(Object.fromEntries(skips))}\n`,
);
