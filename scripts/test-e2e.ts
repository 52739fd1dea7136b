import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureWebBuild } from './ensure-web-build.ts';

// `npm run test:e2e`: the browser suite alone, against a fresh build of the web app.
const ROOT = fileURLToPath(new URL('..', import.meta.url));
ensureWebBuild();
const vitest = path.join(ROOT, 'node_modules', '.bin', 'vitest');
const result = spawnSync(vitest, ['run', '--project', 'e2e', ...process.argv.slice(2)], {
  cwd: ROOT,
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
