import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Hono } from 'hono';

/** The path of the API's reference page for people. */
export const API_DOCS_PATH = '/docs/api';

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Earshot API</title>
</head>
<body>
<div id="api-reference"></div>
<script src="${API_DOCS_PATH}/scalar.js"></script>
<script src="${API_DOCS_PATH}/init.js"></script>
</body>
</html>
`;

// No AI agent, no MCP generator and no developer toolbar: the page talks to this server only, as
// the Content-Security-Policy requires (docs/decisions/0029-api-keys.md).
const INIT = `Scalar.createApiReference('#api-reference', {
  url: '/api/openapi.json',
  withDefaultFonts: false,
  showDeveloperTools: 'never',
  hideClientButton: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  authentication: { preferredSecurityScheme: 'apiKey' },
});
`;

/**
 * /docs/api: the OpenAPI document of /api/openapi.json rendered by Scalar's API reference, whose
 * standalone bundle is served from the installed package (nothing from a CDN, nothing fetched at
 * run time). Read on first request and kept; scripts are files, never inline, for the CSP.
 */
export function createApiDocsPage() {
  let bundle: string | undefined;
  const app = new Hono();
  app.get('/', (c) => {
    c.header('Cache-Control', 'no-cache');
    return c.html(PAGE);
  });
  app.get('/init.js', (c) => {
    c.header('Content-Type', 'text/javascript; charset=utf-8');
    c.header('Cache-Control', 'no-cache');
    return c.body(INIT);
  });
  app.get('/scalar.js', (c) => {
    bundle ??= withoutCdnFonts(readFileSync(standaloneBundle(), 'utf8'));
    c.header('Content-Type', 'text/javascript; charset=utf-8');
    c.header('Cache-Control', 'public, max-age=3600');
    return c.body(bundle);
  });
  return app;
}

/** The package exports no path to its browser bundle; it sits beside its entry, in dist/. */
function standaloneBundle(): string {
  const entry = createRequire(import.meta.url).resolve('@scalar/api-reference');
  return path.join(path.dirname(entry), 'browser', 'standalone.js');
}

/**
 * The bundle's CSS declares its fonts on Scalar's CDN whatever `withDefaultFonts` says; those
 * @font-face rules are dropped, so the page uses the system's fonts and asks no other host.
 */
export function withoutCdnFonts(bundle: string): string {
  return bundle.replace(/@font-face\s*\{[^}]*fonts\.scalar\.com[^}]*\}/g, '');
}
