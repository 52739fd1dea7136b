import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// `npm run dev`: the API server (restarted on change by Node's watch mode) and Vite's dev server,
// which proxies /api and /idp to it. Stop both with Ctrl-C.
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const server = spawn(process.execPath, ['--watch-path=src', 'src/main.ts'], {
  cwd: ROOT,
  stdio: 'inherit',
  env: { NODE_ENV: 'development', PUBLIC_URL: 'http://localhost:5173', ...process.env },
});
const vite = spawn(path.join(ROOT, 'node_modules', '.bin', 'vite'), [], {
  cwd: ROOT,
  stdio: 'inherit',
});
const stop = () => {
  server.kill('SIGTERM');
  vite.kill('SIGTERM');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
server.on('exit', stop);
vite.on('exit', stop);
