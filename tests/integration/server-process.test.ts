import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import {
  type AppProcess,
  createDataDir,
  freePort,
  runAppExpectingFailure,
  startAppProcess,
} from '../support/app-process.ts';

// The real entry point as a user runs it: start-up, persistence, shutdown and bad configuration.
describe('the server process', () => {
  const running: AppProcess[] = [];
  afterAll(async () => {
    for (const app of running) await app.stop('SIGKILL');
  });

  test('serves the API and the SPA, keeps data across restarts, and exits 0 on SIGTERM within 5 s', async () => {
    const dataDir = createDataDir();
    const first = await startAppProcess({ dataDir });
    running.push(first);

    const health = await fetch(`${first.url}/api/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({
      status: 'ok',
      database: { ok: true, kind: 'pglite' },
    });
    for (const page of ['/', '/dashboard/monitors', '/account/login']) {
      const response = await fetch(`${first.url}${page}`);
      expect(response.status, page).toBe(200);
      expect(await response.text()).toContain('<div id="root">');
    }
    expect(first.output()).toMatch(/"applied":[1-9]/);
    expect(readdirSync(path.join(dataDir, 'pglite')).length).toBeGreaterThan(0);

    const stopped = await first.stop('SIGTERM');
    expect(stopped.code).toBe(0);
    expect(stopped.ms).toBeLessThan(5000);

    const second = await startAppProcess({ dataDir });
    running.push(second);
    expect(second.output()).toMatch(/"applied":0/);
    expect((await fetch(`${second.url}/api/health`)).status).toBe(200);
    const secondStop = await second.stop('SIGINT');
    expect(secondStop.code).toBe(0);
  });

  test('npm start passes SIGTERM on to the server, which stops cleanly', async () => {
    const port = await freePort();
    const child = spawn('npm', ['start', '--silent'], {
      cwd: fileURLToPath(new URL('../..', import.meta.url)),
      env: {
        ...process.env,
        DATABASE_URL: '',
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: createDataDir({ migrated: true }),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) =>
      child.once('exit', (code) => resolve(code)),
    );
    await expect
      .poll(
        async () => (await fetch(`http://127.0.0.1:${port}/api/health`).catch(() => null))?.status,
        {
          timeout: 120_000,
          interval: 200,
        },
      )
      .toBe(200);
    const started = Date.now();
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(output).toContain('"msg":"stopped"');
    await expect(fetch(`http://127.0.0.1:${port}/api/health`)).rejects.toThrow();
  });

  test.each([
    [{ PORT: 'abc' }, /PORT/],
    [{ DATABASE_URL: 'nonsense' }, /DATABASE_URL/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL/],
  ])('a wrong %o stops start-up with one line naming it and exit code 1', async (env, name) => {
    const { code, output } = await runAppExpectingFailure(env);
    expect(code).toBe(1);
    const lines = output.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(name);
  });

  test('an unreachable database stops start-up with one line, exit code 1', async () => {
    const { code, output } = await runAppExpectingFailure({
      DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
    });
    expect(code).toBe(1);
    expect(output.trim().split('\n')).toHaveLength(1);
    expect(output).toMatch(/Cannot connect to PostgreSQL/);
  });

  test('a port already in use stops start-up with a line saying so, not a stack trace', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as AddressInfo;
    try {
      // It opens its database before it listens: the migrated template spares it the migrations.
      const { code, output } = await runAppExpectingFailure({
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: createDataDir({ migrated: true }),
      });
      expect(code).toBe(1);
      expect(output).toContain(`Cannot start: port ${port} is already in use`);
      expect(output).toMatch(/set PORT to a free port/);
      expect(output).not.toMatch(/^\s+at /m);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});
