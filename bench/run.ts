/**
 * Runs a named benchmark scenario file in a fresh Node process, so scenarios never share JIT
 * state, caches or heap: `npm run bench -- <name>` runs `bench/<name>.bench.ts`. Without a name
 * it lists the scenarios. Extra arguments are passed on.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const directory = fileURLToPath(new URL('.', import.meta.url));
const available = readdirSync(directory)
  .filter((file) => file.endsWith('.bench.ts'))
  .map((file) => file.slice(0, -'.bench.ts'.length))
  .sort();

const [name, ...rest] = process.argv.slice(2);
if (!name || !available.includes(name)) {
  if (name) console.error(`No benchmark named "${name}".`);
  console.error(`Usage: npm run bench -- <name>\nBenchmarks: ${available.join(', ') || '(none)'}`);
  process.exit(name ? 1 : 0);
}
const result = spawnSync(process.execPath, [`${directory}${name}.bench.ts`, ...rest], {
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
