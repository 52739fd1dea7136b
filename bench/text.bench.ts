// HTML and Markdown to text, A/B: this checkout's src/sources/text against the same files at an
// earlier commit (default: the regular-expression versions those libraries replaced), on the
// recorded texts (Hacker News and Lobsters HTML, Reddit Markdown).
//   npm run bench -- text [--baseline <commit>] [--data <dir>] [--rounds 5]
// Both variants run in this process, alternating per round after a warm-up; the table shows the
// median texts per second and MB/s of source, then the raw rounds. Figures: docs/PERFORMANCE.md.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({
  options: {
    baseline: { type: 'string', default: '4350a6f' },
    data: { type: 'string', default: path.join(ROOT, 'tests/fixtures/recorded') },
    rounds: { type: 'string', default: '5' },
  },
});
const rounds = Number(values.rounds);

type Convert = (source: string) => string;
type Variant = { name: string; html: Convert; markdown: Convert };

async function loadVariant(name: string, dir: string): Promise<Variant> {
  const html = await import(path.join(dir, 'html-to-text.ts'));
  const markdown = await import(path.join(dir, 'markdown-to-text.ts'));
  return { name, html: html.htmlToText, markdown: markdown.markdownToText };
}

/** The two files as they were at `commit`, in a folder of their own. */
function checkoutBaseline(commit: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'text-baseline-'));
  for (const file of ['html-to-text.ts', 'markdown-to-text.ts']) {
    const source = execFileSync('git', ['show', `${commit}:src/sources/text/${file}`], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    writeFileSync(path.join(dir, file), source);
  }
  return dir;
}

/** Every string field named `keys` anywhere in `value`. */
function collect(value: unknown, keys: readonly string[], into: string[]): string[] {
  if (Array.isArray(value)) for (const v of value) collect(v, keys, into);
  else if (value && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) {
      if (keys.includes(key) && typeof v === 'string' && v !== '') into.push(v);
      else collect(v, keys, into);
    }
  }
  return into;
}

function readCorpus(dir: string) {
  const html: string[] = [];
  const markdown: string[] = [];
  for (const file of readdirSync(dir).sort()) {
    const text = readFileSync(path.join(dir, file), 'utf8');
    if (file.endsWith('.jsonl') && file.startsWith('hn-')) {
      for (const line of text.trim().split('\n')) collect(JSON.parse(line), ['text'], html);
    } else if (file.endsWith('.json') && file.startsWith('lobsters-')) {
      collect(JSON.parse(text), ['description', 'comment'], html);
    } else if (file.endsWith('.json') && file.startsWith('reddit-')) {
      collect(JSON.parse(text), ['body', 'selftext'], markdown);
    }
  }
  return { html, markdown };
}

/** Converts every text `passes` times; returns texts/s and MB/s of source. */
function measure(convert: Convert, texts: readonly string[], bytes: number, minMs = 1000) {
  let passes = 0;
  let sink = 0;
  const started = performance.now();
  do {
    for (const text of texts) sink += convert(text).length;
    passes++;
  } while (performance.now() - started < minMs);
  const seconds = (performance.now() - started) / 1000;
  if (sink < 0) console.log(sink);
  return {
    perSecond: (texts.length * passes) / seconds,
    mbPerSecond: (bytes * passes) / seconds / 1e6,
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

const corpus = readCorpus(values.data);
const bytes = {
  html: corpus.html.reduce((n, t) => n + Buffer.byteLength(t), 0),
  markdown: corpus.markdown.reduce((n, t) => n + Buffer.byteLength(t), 0),
};
const baselineDir = checkoutBaseline(values.baseline);
try {
  const variants = [
    await loadVariant(`baseline ${values.baseline}`, baselineDir),
    await loadVariant('this checkout', path.join(ROOT, 'src/sources/text')),
  ];
  console.log(
    `${corpus.html.length} HTML texts (${(bytes.html / 1e3).toFixed(0)} kB), ${corpus.markdown.length} Markdown texts (${(bytes.markdown / 1e3).toFixed(0)} kB); ${rounds} rounds`,
  );
  const results = new Map<
    string,
    { html: number[]; markdown: number[]; htmlMb: number[]; markdownMb: number[] }
  >();
  for (const variant of variants) {
    results.set(variant.name, { html: [], markdown: [], htmlMb: [], markdownMb: [] });
    measure(variant.html, corpus.html, bytes.html, 300);
    measure(variant.markdown, corpus.markdown, bytes.markdown, 300);
  }
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? variants : [...variants].reverse();
    for (const variant of order) {
      const row = results.get(variant.name);
      if (!row) continue;
      const html = measure(variant.html, corpus.html, bytes.html);
      const markdown = measure(variant.markdown, corpus.markdown, bytes.markdown);
      row.html.push(html.perSecond);
      row.htmlMb.push(html.mbPerSecond);
      row.markdown.push(markdown.perSecond);
      row.markdownMb.push(markdown.mbPerSecond);
    }
  }
  console.log('\n| variant | HTML texts/s | HTML MB/s | Markdown texts/s | Markdown MB/s |');
  console.log('| --- | --- | --- | --- | --- |');
  for (const [name, row] of results) {
    console.log(
      `| ${name} | ${median(row.html).toFixed(0)} | ${median(row.htmlMb).toFixed(1)} | ${median(row.markdown).toFixed(0)} | ${median(row.markdownMb).toFixed(1)} |`,
    );
  }
  console.log('\nraw rounds (texts/s):');
  for (const [name, row] of results) {
    console.log(
      `  ${name}: HTML ${row.html.map((x) => x.toFixed(0)).join(', ')}; Markdown ${row.markdown.map((x) => x.toFixed(0)).join(', ')}`,
    );
  }
} finally {
  rmSync(baselineDir, { recursive: true, force: true });
}
