// Writes the matcher benchmark's workload as files for the `match` CLI: monitors-<N>.jsonl (the
// monitors of bench/matcher-workload.ts, one {"id","query"} a line) and items.jsonl (the recorded
// items), so the CLI can be timed end to end on the benchmark's data:
//   node bench/matcher-files.ts /tmp/earshot-workload 10000 100000 1000000
//   /usr/bin/time -v npm run --silent match -- --monitors /tmp/earshot-workload/monitors-1000000.jsonl \
//     --items /tmp/earshot-workload/items.jsonl > /dev/null

import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildVocabulary, generateMonitors, loadItems } from './matcher-workload.ts';

const [directory, ...sizes] = process.argv.slice(2);
if (directory === undefined || sizes.length === 0) {
  process.stderr.write('usage: node bench/matcher-files.ts <directory> <monitors>...\n');
  process.exit(2);
}
mkdirSync(directory, { recursive: true });
const items = loadItems();
const vocabulary = buildVocabulary(items);
for (const size of sizes.map(Number)) {
  const lines = generateMonitors(vocabulary, size, 1).map((monitor) =>
    JSON.stringify({ id: monitor.id, query: monitor.query }),
  );
  writeFileSync(join(directory, `monitors-${size}.jsonl`), `${lines.join('\n')}\n`);
}
copyFileSync(
  join(import.meta.dirname, '..', 'tests', 'fixtures', 'items', 'items.jsonl'),
  join(directory, 'items.jsonl'),
);
