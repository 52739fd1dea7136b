import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BUILT_INDEX = path.join(ROOT, 'dist', 'web', 'index.html');
const WEB_INPUTS = [
  'src/web',
  'src/shared',
  'scripts/prerender-home.ts',
  'scripts/precompress.ts',
  'scripts/build-images.ts',
  'vite.config.ts',
  'package-lock.json',
];

/** Builds the web app when dist/web is missing or older than its sources. */
export function ensureWebBuild(): void {
  const reason = buildReason();
  if (!reason) return;
  console.log(`Building the web app (${reason})…`);
  const vite = path.join(ROOT, 'node_modules', '.bin', 'vite');
  const result = spawnSync(vite, ['build', '--logLevel', 'warn'], { cwd: ROOT, stdio: 'inherit' });
  const prerender =
    result.status === 0
      ? spawnSync(process.execPath, ['scripts/prerender-home.ts'], { cwd: ROOT, stdio: 'inherit' })
      : result;
  if (result.status !== 0 || prerender.status !== 0) {
    console.error('The web app failed to build; see the messages above.');
    process.exit(1);
  }
}

function buildReason(): string | null {
  if (!existsSync(BUILT_INDEX)) return 'first run';
  const builtAt = statSync(BUILT_INDEX).mtimeMs;
  for (const input of WEB_INPUTS) {
    if (newestModification(path.join(ROOT, input)) > builtAt) return `${input} changed`;
  }
  return null;
}

function newestModification(target: string): number {
  if (!existsSync(target)) return 0;
  const stats = statSync(target);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = stats.mtimeMs;
  for (const entry of readdirSync(target, { withFileTypes: true })) {
    if (entry.name === 'node_modules') continue;
    newest = Math.max(newest, newestModification(path.join(target, entry.name)));
  }
  return newest;
}

if (import.meta.main) ensureWebBuild();
