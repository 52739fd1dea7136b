import { afterAll, expect, test } from 'vitest';
import { createDataDir, freePort } from '../support/app-process.ts';
import { type EntryProcess, startEntry } from '../support/entry-process.ts';

// `npm run dev` with a PORT of its own: Vite's dev server, at DEV_PORT, proxies the API to the
// port the server listens on (it once proxied to 3000 whatever PORT said).
let dev: EntryProcess | null = null;
afterAll(async () => {
  await dev?.stop();
});

test('npm run dev serves the app at DEV_PORT and proxies /api to the server at PORT', async () => {
  const [port, devPort] = [await freePort(), await freePort()];
  dev = startEntry('scripts/dev.ts', {
    PORT: String(port),
    DEV_PORT: String(devPort),
    DATA_DIR: createDataDir({ migrated: true }),
    DATABASE_URL: '',
    SOURCES: 'none',
    LOG_LEVEL: 'warn',
  });
  await dev.waitFor(/API: +http:\/\/127\.0\.0\.1:\d+/u, 60_000);
  expect(dev.output()).toContain(`http://127.0.0.1:${port}`);
  const base = `http://localhost:${devPort}`;
  // The server starts beside Vite: wait for its first answer through the proxy.
  let health: Response | null = null;
  for (const started = Date.now(); Date.now() - started < 60_000; ) {
    health = await fetch(`${base}/api/health`).catch(() => null);
    if (health?.status === 200) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  expect(health?.status).toBe(200);
  expect(await health?.json()).toMatchObject({ status: 'ok' });
  const config = await (await fetch(`${base}/api/config`)).json();
  // The identity endpoint the browser is given is the dev server's page, proxied to /idp.
  expect(JSON.stringify(config)).toContain(base);
  const page = await fetch(`${base}/dashboard/monitors`);
  expect(await page.text()).toContain('<div id="root">');
}, 120_000);
