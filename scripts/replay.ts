import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadReplayCorpus } from '../src/replay/corpus.ts';
import { startReplay } from '../src/replay/replay-server.ts';

// `npm run replay -- --data <dir> [--speed N] [--port P] [--loop]`: the recorded answers of
// Hacker News, Reddit and Lobsters served in the sites' API shapes, N records a second per site.
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
console.log(
  `Replaying ${corpus.hackernews.length} Hacker News items, ${corpus.reddit.length} Reddit things and ` +
    `${corpus.lobstersStories.length + corpus.lobstersComments.length} Lobsters records at ${speed}/s each on ${replay.url}\n` +
    'Point Earshot at it with:\n' +
    `  HN_API_URL=${replay.url}/v0\n` +
    `  REDDIT_AUTH_URL=${replay.url}/api/v1/access_token REDDIT_API_URL=${replay.url}\n` +
    '  REDDIT_CLIENT_ID=replay-client REDDIT_CLIENT_SECRET=replay-secret\n' +
    `  LOBSTERS_URL=${replay.url}`,
);
const stop = () => void replay.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
