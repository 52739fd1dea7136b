import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The layer rules of docs/ARCHITECTURE.md ("Layers and the directions they point"), checked over
 * the import graph of src/ and scripts/. Part of `npm run verify` and CI: a violation prints
 * `file:line` with the rule it breaks and exits 1. Packages (`zod`, `node:fs`) are not ours and
 * are not checked; only relative imports are.
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url));

type Rule = {
  /** What the rule says, printed with each violation. */
  says: string;
  /** Whether the rule applies to an importing file (a path relative to the root, `/`-separated). */
  covers(file: string): boolean;
  /** Whether the file may import `target`. */
  allows(target: string, file: string): boolean;
};

const within = (folder: string) => (file: string) => file.startsWith(`src/${folder}/`);
const inAny =
  (...folders: string[]) =>
  (target: string) =>
    folders.some((folder) => target.startsWith(`src/${folder}/`));

/**
 * The only files that may import src/server: the process entry points. A new one is
 * `src/<what>-main.ts` (e.g. `src/worker-main.ts`) or a script named here.
 */
const SERVER_ENTRY_POINTS = [/^src\/main\.ts$/, /^src\/[a-z0-9-]+-main\.ts$/];
const SERVER_ENTRY_SCRIPTS: string[] = [];

export const RULES: Rule[] = [
  {
    says: 'src/matcher imports nothing of ours but src/shared',
    covers: within('matcher'),
    allows: inAny('matcher', 'shared'),
  },
  {
    says: 'src/core never imports src/server or src/web',
    covers: within('core'),
    allows: (target) => !inAny('server', 'web')(target),
  },
  {
    says: 'src/web imports only src/shared outside itself',
    covers: within('web'),
    allows: inAny('web', 'shared'),
  },
  {
    says: 'src/sources never imports src/db',
    covers: within('sources'),
    allows: (target) => !inAny('db')(target),
  },
  {
    says: 'src/shared imports nothing of ours outside itself',
    covers: within('shared'),
    allows: inAny('shared'),
  },
  {
    says: 'src/platform imports only src/shared outside itself',
    covers: within('platform'),
    allows: inAny('platform', 'shared'),
  },
  {
    says: 'nothing imports src/server but src/main.ts, src/*-main.ts and the entry-point scripts',
    covers: (file) => file.startsWith('src/') || file.startsWith('scripts/'),
    allows: (target, file) =>
      !inAny('server')(target) ||
      file.startsWith('src/server/') ||
      SERVER_ENTRY_POINTS.some((pattern) => pattern.test(file)) ||
      SERVER_ENTRY_SCRIPTS.includes(file),
  },
];

export type Violation = { file: string; line: number; specifier: string; rule: string };

/** Every relative import of `file` (source text), with its line and the path it resolves to. */
export function readImports(
  file: string,
  source: string,
): { line: number; specifier: string; target: string }[] {
  // Block comments may show import examples; blank them but keep the line count.
  const code = source.replace(/\/\*[\s\S]*?\*\//g, (comment) => comment.replace(/[^\n]/g, ' '));
  const found: { line: number; specifier: string; target: string }[] = [];
  const pattern =
    /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+|\bexport\s+\*\s+from\s*)['"]([^'"]+)['"]/gm;
  for (const match of code.matchAll(pattern)) {
    const specifier = match[1] ?? '';
    if (!specifier.startsWith('.')) continue;
    // Skip a commented-out import, and import-like text inside a string (a test's sample code).
    const before = code.slice(code.lastIndexOf('\n', match.index) + 1, match.index);
    if (before.trimStart().startsWith('//') || /['"`]/.test(before)) continue;
    const line = code.slice(0, match.index).split('\n').length;
    const resolved = path.posix.normalize(
      path.posix.join(path.posix.dirname(file), specifier.replace(/\?.*$/, '')),
    );
    found.push({ line, specifier, target: resolved });
  }
  return found;
}

export function findViolations(files: { file: string; source: string }[]): Violation[] {
  const violations: Violation[] = [];
  for (const { file, source } of files) {
    const rules = RULES.filter((rule) => rule.covers(file));
    if (rules.length === 0) continue;
    for (const { line, specifier, target } of readImports(file, source)) {
      for (const rule of rules) {
        if (!rule.allows(target, file)) violations.push({ file, line, specifier, rule: rule.says });
      }
    }
  }
  return violations;
}

function listSources(folder: string): string[] {
  const entries = readdirSync(path.join(ROOT, folder), { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && /\.(ts|tsx|mts)$/.test(entry.name))
    .map((entry) =>
      path.relative(ROOT, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'),
    )
    .sort();
}

function main(): void {
  const files = ['src', 'scripts'].flatMap(listSources).map((file) => ({
    file,
    source: readFileSync(path.join(ROOT, file), 'utf8'),
  }));
  const violations = findViolations(files);
  if (violations.length === 0) {
    console.log(
      `Import rules: ${files.length} files checked, every import points the allowed way.`,
    );
    return;
  }
  console.error(
    `Import rules: ${violations.length} violation(s) (docs/ARCHITECTURE.md, "Layers"):`,
  );
  for (const violation of violations) {
    console.error(
      `  ${violation.file}:${violation.line} imports '${violation.specifier}': ${violation.rule}`,
    );
  }
  process.exitCode = 1;
}

if (import.meta.main) main();
