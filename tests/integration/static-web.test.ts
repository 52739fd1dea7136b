import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { get, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { precompressDirectory } from '../../scripts/precompress.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const HOME_HTML = `<!doctype html><div id="root"><h1>Hear every mention</h1>${'<p>prerendered</p>'.repeat(100)}</div>`;
const BIG_SCRIPT = `export const words = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `word-${i % 17}`))};\n`;

/** node:http, so the body arrives exactly as sent (fetch would decode it). */
function fetchRaw(
  url: string,
  headers: Record<string, string>,
): Promise<{ headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

// Serving the built SPA: client routes fall back to index.html, hashed assets are cached for a year.
describe('the web app as served', () => {
  let app: TestApp;
  beforeAll(async () => {
    const webRoot = mkdtempSync(path.join(tmpdir(), 'earshot-web-'));
    mkdirSync(path.join(webRoot, 'assets'));
    writeFileSync(path.join(webRoot, 'index.html'), '<!doctype html><div id="root"></div>');
    writeFileSync(path.join(webRoot, 'assets', 'index-AbC123.js'), 'console.log(1)');
    writeFileSync(path.join(webRoot, 'assets', 'big-AbC123.js'), BIG_SCRIPT);
    writeFileSync(path.join(webRoot, 'home.html'), HOME_HTML);
    // A map left by an older build (or a build with maps on) must not be served.
    writeFileSync(path.join(webRoot, 'assets', 'big-AbC123.js.map'), `{"sources":${BIG_SCRIPT}}`);
    precompressDirectory(webRoot);
    writeFileSync(path.join(webRoot, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    app = await startTestApp({ smtp: false, webRoot });
  });
  afterAll(async () => {
    await app?.close();
  });

  test.each([
    '/',
    '/dashboard/monitors',
    '/dashboard/alerts',
    '/account/login',
    '/unsubscribe?token=x',
  ])('%s serves index.html, revalidated on every visit', async (page) => {
    const response = await fetch(`${app.url}${page}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/text\/html/);
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(await response.text()).toContain('<div id="root">');
  });

  test('hashed assets are immutable for a year', async () => {
    const response = await fetch(`${app.url}/assets/index-AbC123.js`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(response.headers.get('content-type')).toMatch(/javascript/);
  });

  test('source maps are never served, plain or precompressed', async () => {
    for (const encoding of ['identity', 'br', 'gzip']) {
      const response = await fetchRaw(`${app.url}/assets/big-AbC123.js.map`, {
        'accept-encoding': encoding,
      });
      expect(response.body.toString('utf8'), encoding).not.toContain('sources');
      expect(response.headers['content-type'], encoding).not.toMatch(/json/);
    }
    expect((await fetch(`${app.url}/assets/big-AbC123.js.map`)).status).toBe(404);
  });

  test('compressible assets are sent precompressed when the browser accepts it', async () => {
    for (const [encoding, decode] of [
      ['br', brotliDecompressSync],
      ['gzip', gunzipSync],
    ] as const) {
      const response = await fetchRaw(`${app.url}/assets/big-AbC123.js`, {
        'accept-encoding': encoding,
      });
      expect(response.headers['content-encoding']).toBe(encoding);
      expect(response.headers.vary).toMatch(/Accept-Encoding/i);
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(decode(response.body).toString('utf8')).toBe(BIG_SCRIPT);
      expect(response.body.length).toBeLessThan(BIG_SCRIPT.length / 5);
    }
    const plain = await fetchRaw(`${app.url}/assets/big-AbC123.js`, {
      'accept-encoding': 'identity',
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString('utf8')).toBe(BIG_SCRIPT);
  });

  test('other static files are cached briefly', async () => {
    const response = await fetch(`${app.url}/favicon.svg`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=3600');
  });

  test('a missing asset is a 404, not the SPA', async () => {
    const response = await fetch(`${app.url}/assets/missing-123.js`);
    expect(response.status).toBe(404);
  });

  test('path traversal does not leave the web root', async () => {
    const response = await fetch(`${app.url}/assets/..%2f..%2f..%2fetc%2fpasswd`);
    expect(await response.text()).not.toContain('root:');
  });
});
