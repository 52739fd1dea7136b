import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadReplayCorpus } from '../src/replay/corpus.ts';
import { replaySettings, startReplay } from '../src/replay/replay-server.ts';
import { SOURCE_LABELS, type SourceName } from '../src/shared/sources.ts';

// `npm run replay -- --data <dir> [--speed N] [--port P] [--loop]`: the recorded answers of
// every site (src/shared/sources.ts) served in its API shapes, N records a second per site.
const { values } = parseArgs({
  options: {
    data: { type: 'string', default: path.join('tests', 'fixtures', 'recorded') },
    speed: { type: 'string', default: '1' },
    port: { type: 'string', default: '8790' },
    initial: { type: 'string', default: '0' },
    loop: { type: 'boolean', default: false },
  },
});
const speed = Number(values.speed);
const port = Number(values.port);
if (!(speed > 0) || !Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(
    'Usage: npm run replay -- --data <dir> [--speed N (records a second, > 0)] [--port P] [--loop]',
  );
  process.exit(1);
}
const corpus = loadReplayCorpus(values.data);
const replay = await startReplay({
  corpus,
  rate: speed,
  port,
  initial: Number(values.initial) || 0,
  loop: values.loop,
});
const others = Object.entries(corpus.sites)
  .map(
    ([name, records]) =>
      `, ${records?.length ?? 0} ${SOURCE_LABELS[name as SourceName]} records${
        // Not recorded: built from the API reference (tests/fixtures/reference, decision 0041).
        name === 'stackoverflow' ? ' (examples built from its API reference, not recorded)' : ''
      }`,
  )
  .join('');
console.log(
  `Replaying ${corpus.hackernews.length} Hacker News items, ${corpus.reddit.length} Reddit things, ` +
    `${corpus.lobstersStories.length + corpus.lobstersComments.length} Lobsters records${others} at ${speed}/s each on ${replay.url}\n` +
    'Point Earshot at it with:\n' +
    Object.entries(replaySettings(replay.url))
      .map(([name, value]) => `  ${name}=${value}`)
      .join('\n'),
);
const stop = () => void replay.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
