import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const COMPRESSIBLE = /\.(js|css|html|svg|json|txt|webmanifest)$/;
const MIN_BYTES = 1024;

/**
 * Writes .br and .gz next to every compressible file of a build, once, at build time; the server
 * then serves them as they are (Content-Encoding by Accept-Encoding) instead of compressing per request.
 */
export function precompressDirectory(directory: string): {
  files: number;
  bytes: number;
  brotliBytes: number;
} {
  const totals = { files: 0, bytes: 0, brotliBytes: 0 };
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const file = path.join(directory, entry.name);
    if (entry.isDirectory()) {
      const inner = precompressDirectory(file);
      totals.files += inner.files;
      totals.bytes += inner.bytes;
      totals.brotliBytes += inner.brotliBytes;
      continue;
    }
    if (!COMPRESSIBLE.test(entry.name) || statSync(file).size < MIN_BYTES) continue;
    const { bytes, brotliBytes } = precompressFile(file);
    totals.files += 1;
    totals.bytes += bytes;
    totals.brotliBytes += brotliBytes;
  }
  return totals;
}

export function precompressFile(file: string): { bytes: number; brotliBytes: number } {
  const content = readFileSync(file);
  const brotli = brotliCompressSync(content, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 11,
      [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
    },
  });
  writeFileSync(`${file}.br`, brotli);
  writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
  return { bytes: content.length, brotliBytes: brotli.length };
}
