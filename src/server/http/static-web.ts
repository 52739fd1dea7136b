import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';

const IMMUTABLE = 'public, max-age=31536000, immutable';

function readPrerenderedHome(webRoot: string) {
  const file = path.join(webRoot, 'home.html');
  if (!existsSync(file)) return null;
  const optional = (name: string) => (existsSync(name) ? readFileSync(name) : null);
  return {
    html: readFileSync(file, 'utf8'),
    br: optional(`${file}.br`),
    gzip: optional(`${file}.gz`),
  };
}

/**
 * Serves the built SPA: hashed files under /assets/ are cached for a year (sent precompressed),
 * source maps never, everything else is revalidated, `/` is the prerendered home page, and any other GET path falls
 * back to index.html so client routes load directly.
 */
export function createStaticWeb(webRoot: string) {
  const indexFile = path.join(webRoot, 'index.html');
  if (!existsSync(indexFile)) {
    throw new Error(`The web app is not built: ${indexFile} is missing. Run "npm run build".`);
  }
  const indexHtml = readFileSync(indexFile, 'utf8');
  const home = readPrerenderedHome(webRoot);
  const app = new Hono();
  // Source maps are not published, even if a build left some behind: they would hand out the
  // original source.
  app.all('*', async (c, next) =>
    c.req.path.endsWith('.map') ? c.text('Not found', 404) : next(),
  );
  // `/` gets the prerendered home page (scripts/prerender-home.ts) when the build has one.
  if (home) {
    app.get('/', (c) => {
      const accepted = c.req.header('Accept-Encoding') ?? '';
      const encoding =
        home.br && /\bbr\b/.test(accepted)
          ? 'br'
          : home.gzip && /\bgzip\b/.test(accepted)
            ? 'gzip'
            : null;
      c.header('Cache-Control', 'no-cache');
      c.header('Content-Type', 'text/html; charset=UTF-8');
      c.header('Vary', 'Accept-Encoding');
      if (!encoding) return c.body(home.html);
      c.header('Content-Encoding', encoding);
      return c.body(
        new Uint8Array(encoding === 'br' ? (home.br as Buffer) : (home.gzip as Buffer)),
      );
    });
  }
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
