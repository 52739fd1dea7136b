import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer } from 'vite';
import { precompressFile } from './precompress.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT = path.join(ROOT, 'dist', 'web');
const ROOT_ELEMENT = '<div id="root"></div>';

/**
 * Writes dist/web/home.html: the built index.html with the home page already rendered inside
 * #root. The server sends it for `/` only; every other route gets the empty shell.
 */
export async function prerenderHome(): Promise<void> {
  const vite = await createServer({
    root: path.join(ROOT, 'src', 'web'),
    configFile: path.join(ROOT, 'vite.config.ts'),
    server: { middlewareMode: true, hmr: false },
    appType: 'custom',
    logLevel: 'error',
  });
  try {
    const module = (await vite.ssrLoadModule('/prerender.tsx')) as { renderHomePage(): string };
    const index = readFileSync(path.join(OUT, 'index.html'), 'utf8');
    if (!index.includes(ROOT_ELEMENT))
      throw new Error(`dist/web/index.html has no ${ROOT_ELEMENT}`);
    const home = path.join(OUT, 'home.html');
    writeFileSync(
      home,
      index.replace(ROOT_ELEMENT, `<div id="root">${module.renderHomePage()}</div>`),
    );
    precompressFile(home);
  } finally {
    await vite.close();
  }
}

if (import.meta.main) await prerenderHome();
