import path from 'node:path';
import { eq } from 'drizzle-orm';
import { parseConfig } from '../src/config/env.ts';
import { loadDotEnv } from '../src/config/load-env.ts';
import { monitors } from '../src/db/schema/monitors.ts';
import { users } from '../src/db/schema/users.ts';
import type { EmbeddedIdentity } from '../src/identity/embedded/create-embedded-identity.ts';
import { startEarshot, startupMessage } from '../src/main.ts';
import { loadReplayCorpus } from '../src/replay/corpus.ts';
import { replaySettings, startReplay } from '../src/replay/replay-server.ts';
import { ensureWebBuild } from './ensure-web-build.ts';

// `npm run demo`: Earshot against the replay of the recorded sites (no credentials, no
// internet), with a demo account and three monitors, so matches arrive within a minute.
// Its data lives in DATA_DIR/demo (./data/demo), apart from `npm start`'s.

const DEMO_EMAIL = 'demo@earshot.local';
const DEMO_PASSWORD = 'Demo-Listen-2026';
const DEMO_MONITORS = [
  { name: 'Big tech', query: 'google OR apple OR microsoft' },
  { name: 'Programming languages', query: 'rust OR python OR javascript' },
  { name: 'Ask threads', query: 'ask OR question' },
];

ensureWebBuild();
loadDotEnv();
const ROOT = path.join(import.meta.dirname, '..');
const replay = await startReplay({
  corpus: loadReplayCorpus(path.join(ROOT, 'tests', 'fixtures', 'recorded')),
  // Two records a second per site, a handful visible at once, the corpus looping forever.
  rate: 2,
  initial: 5,
  loop: true,
});
const config = parseConfig({
  ...process.env,
  DATABASE_URL: '',
  COGNITO_USER_POOL_ID: '',
  COGNITO_CLIENT_ID: '',
  DATA_DIR: path.join(process.env.DATA_DIR || path.join(ROOT, 'data'), 'demo'),
  ...replaySettings(replay.url),
  HN_POLL_SECONDS: '1',
  REDDIT_POLL_SECONDS: '1',
  LOBSTERS_POLL_SECONDS: '2',
  DEVTO_POLL_SECONDS: '2',
  MASTODON_POLL_SECONDS: '2',
  GITHUB_POLL_SECONDS: '2',
  BLUESKY_POLL_SECONDS: '1',
  STACKEXCHANGE_POLL_SECONDS: '2',
});
const running = await startEarshot({ web: true, worker: true }, config).catch(
  async (error: unknown) => {
    console.error(startupMessage(error));
    await replay.close();
    process.exit(1);
  },
);
const identity = running.identity as EmbeddedIdentity;
const { db } = running.database;
const [existing] = await db.select().from(users).where(eq(users.email, DEMO_EMAIL));
if (!existing) {
  const { sub } = await identity.admin.createUser({
    email: DEMO_EMAIL,
    password: DEMO_PASSWORD,
    givenName: 'Demo',
    familyName: 'Listener',
    confirmed: true,
  });
  await db
    .insert(users)
    .values({ id: sub, email: DEMO_EMAIL, firstName: 'Demo', lastName: 'Listener' });
  await db.insert(monitors).values(DEMO_MONITORS.map((monitor) => ({ userId: sub, ...monitor })));
}

console.log(`
Earshot demo: ${config.publicUrl}
  Sign in at ${config.publicUrl}/account/login
    e-mail:   ${DEMO_EMAIL}
    password: ${DEMO_PASSWORD}
  Three monitors watch a replay of recorded Hacker News, Reddit and Lobsters data
  (${replay.url}); matches appear in the dashboard within a minute.
  Ctrl+C stops it; the demo's data stays in ${config.DATA_DIR}.
`);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await running.stop();
  await replay.close();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
