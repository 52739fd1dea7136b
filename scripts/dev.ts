import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createServer } from 'vite';
import { type Config, parseConfig } from '../src/config/env.ts';
import { loadDotEnv } from '../src/config/load-env.ts';
import { startupMessage } from '../src/main.ts';

// `npm run dev`: the API server (restarted on change by Node's watch mode) and Vite's dev server
// at DEV_PORT, which proxies /api and /idp to the API at the PORT (and HOST) the server listens
// on, read from the same environment and .env. Stop both with Ctrl-C.
const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Where this machine reaches the server: HOST, or loopback when it listens on every interface. */
function apiTarget(config: Pick<Config, 'HOST' | 'PORT'>): string {
  const host = config.HOST === '0.0.0.0' ? '127.0.0.1' : config.HOST === '::' ? '::1' : config.HOST;
  return `http://${host.includes(':') ? `[${host}]` : host}:${config.PORT}`;
}

loadDotEnv();
let config: Config;
try {
  config = parseConfig(process.env);
} catch (error) {
  console.error(startupMessage(error));
  process.exit(1);
}
const devUrl = `http://localhost:${config.DEV_PORT}`;
const target = apiTarget(config);

const server = spawn(process.execPath, ['--watch-path=src', 'src/main.ts'], {
  cwd: ROOT,
  stdio: 'inherit',
  // Links in emails and the identity endpoint point at the page the browser has open.
  env: { NODE_ENV: 'development', PUBLIC_URL: devUrl, ...process.env },
});
const vite = await createServer({
  configFile: fileURLToPath(new URL('../vite.config.ts', import.meta.url)),
  server: {
    port: config.DEV_PORT,
    strictPort: true,
    proxy: { '/api': target, '/idp': target },
  },
});
await vite.listen();
vite.printUrls();
console.log(`  ➜  API:     ${target} (proxied under /api and /idp)`);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  server.kill('SIGTERM');
  await vite.close();
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
server.on('exit', () => void stop());
