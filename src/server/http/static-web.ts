import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';

const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Serves the built SPA: hashed files under /assets/ are cached for a year, everything else is
 * revalidated, and any other GET path falls back to index.html so client routes load directly.
 */
export function createStaticWeb(webRoot: string) {
  const indexFile = path.join(webRoot, 'index.html');
  if (!existsSync(indexFile)) {
    throw new Error(`The web app is not built: ${indexFile} is missing. Run "npm run build".`);
  }
  const indexHtml = readFileSync(indexFile, 'utf8');
  const app = new Hono();
  app.use(
    '/assets/*',
    serveStatic({
      root: path.relative(process.cwd(), webRoot) || '.',
      precompressed: true,
      onFound: (_path, c) => {
        c.header('Cache-Control', IMMUTABLE);
      },
    }),
  );
  // A missing hashed file (an old tab after a deploy) must fail loudly, not receive the SPA's HTML.
  app.all('/assets/*', (c) => c.text('Not found', 404));
  app.use(
    '*',
    serveStatic({
      root: path.relative(process.cwd(), webRoot) || '.',
      onFound: (file, c) => {
        c.header('Cache-Control', file.endsWith('.html') ? 'no-cache' : 'public, max-age=3600');
      },
    }),
  );
  app.get('*', (c) => {
    c.header('Cache-Control', 'no-cache');
    return c.html(indexHtml);
  });
  return app;
}
