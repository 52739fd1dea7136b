import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { buildImages } from './scripts/build-images.ts';
import { precompressDirectory } from './scripts/precompress.ts';

const outDir = fileURLToPath(new URL('./dist/web', import.meta.url));

/** Brotli and gzip copies of the build, served by the Node server as they are. */
function precompress(): Plugin {
  return {
    name: 'earshot-precompress',
    apply: 'build',
    closeBundle() {
      precompressDirectory(outDir);
    },
  };
}

/** The responsive images (AVIF, WebP, JPEG at every width) of src/shared/responsive-images.ts. */
function responsiveImages(): Plugin {
  return {
    name: 'earshot-responsive-images',
    apply: 'build',
    async closeBundle() {
      await buildImages(outDir);
    },
  };
}

// The SPA lives in src/web and builds to dist/web, which the Node server serves in production.
// `npm run dev` (scripts/dev.ts) adds the dev server's port and its proxy to the API.
export default defineConfig({
  root: 'src/web',
  publicDir: 'public',
  plugins: [react(), tailwindcss(), precompress(), responsiveImages()],
  build: {
    outDir: '../../dist/web',
    emptyOutDir: true,
    // No source maps in the build: they would publish the original source to anyone (and the
    // server refuses to serve *.map files all the same, see src/server/http/static-web.ts).
    sourcemap: false,
    chunkSizeWarningLimit: 900,
  },
});
