import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { copyPgliteTemplate } from './pglite-template.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const EXIT_WITH_PARENT = new URL('./exit-with-parent.ts', import.meta.url).href;
const NODE = process.execPath;

export type AppProcess = {
  url: string;
  port: number;
  dataDir: string;
  child: ChildProcess;
  /** Everything the process printed so far (stdout and stderr). */
  output(): string;
  /** Sends a signal and resolves with the exit code and how long the exit took. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; ms: number }>;
};

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * A new DATA_DIR; `migrated: true` puts a copy of the migrated template database in it (see
 * pglite-template.ts), so the app starts without making and migrating one.
 */
export function createDataDir(options: { migrated?: boolean } = {}): string {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'earshot-app-'));
  if (options.migrated) copyPgliteTemplate(path.join(dataDir, 'pglite'));
  return dataDir;
}

/**
 * Runs `node src/main.ts` (the real entry) and waits until /api/health answers; without a
 * `dataDir`, on a new one holding a migrated database. With `exitWithParent`, the process stops
 * by itself when this one ends, however it ends (exit-with-parent.ts).
 */
export async function startAppProcess(
  options: {
    env?: Record<string, string>;
    dataDir?: string;
    timeoutMs?: number;
    exitWithParent?: boolean;
  } = {},
): Promise<AppProcess> {
  const dataDir = options.dataDir ?? createDataDir({ migrated: true });
  // A free port can be taken by another process between `freePort` and the app's listen (the
  // test workers start servers on ephemeral ports all the time): the app then stops with "is
  // already in use", and starts again on another port.
  for (let attempt = 1; ; attempt++) {
    const port = options.env?.PORT ? Number(options.env.PORT) : await freePort();
    const app = await launch({ ...options, dataDir, port });
    if (app !== 'port taken') return app;
    if (options.env?.PORT || attempt >= 5) {
      throw new Error(`The app could not listen: port ${port} is already in use.`);
    }
  }
}

async function launch(options: {
  env?: Record<string, string>;
  dataDir: string;
  port: number;
  timeoutMs?: number;
  exitWithParent?: boolean;
}): Promise<AppProcess | 'port taken'> {
  const { dataDir, port } = options;
  let output = '';
  const preload = options.exitWithParent ? ['--import', EXIT_WITH_PARENT] : [];
  const child = spawn(NODE, [...preload, 'src/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: '',
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      // Tests never reach the real sites; a test that wants ingestion points it at the replay.
      SOURCES: 'none',
      ...options.env,
    },
    stdio: options.exitWithParent ? ['ignore', 'pipe', 'pipe', 'ipc'] : ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );

  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  for (;;) {
    if (child.exitCode !== null) {
      if (/port \d+ is already in use/.test(output)) return 'port taken';
      throw new Error(`The app exited with code ${child.exitCode} before answering:\n${output}`);
    }
    try {
      // Bounded: on a port another program holds, a request may be accepted and never answered.
      const response = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2000) });
      if (response.ok && child.exitCode === null) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`The app did not answer /api/health in time:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  return {
    url,
    port,
    dataDir,
    child,
    output: () => output,
    async stop(signal = 'SIGTERM') {
      const started = Date.now();
      if (child.exitCode !== null) return { code: child.exitCode, ms: 0 };
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      const code = await exited;
      clearTimeout(timer);
      return { code, ms: Date.now() - started };
    },
  };
}

/** Runs the entry expecting it to fail at start; resolves with its exit code and output. */
export async function runAppExpectingFailure(
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  const child = spawn(NODE, ['src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: '', NODE_ENV: 'test', DATA_DIR: createDataDir(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  clearTimeout(timer);
  return { code, output };
}
