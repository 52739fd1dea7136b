import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import {
  IMAGE_FORMATS,
  IMAGE_QUALITY,
  type ImageFormat,
  imageUrl,
  imageWidths,
  RESPONSIVE_IMAGES,
  type ResponsiveImage,
} from '../src/shared/responsive-images.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
// Encoding AVIF is slow: results are kept by the source's hash and the settings, so a rebuild
// with the same screenshot copies them.
const CACHE = path.join(ROOT, 'node_modules', '.cache', 'earshot-images');

/**
 * Writes every width of every responsive image in AVIF, WebP and JPEG (quality 75) under
 * `<outDir>/images/`. Part of the web build (vite.config.ts).
 */
export async function buildImages(outDir: string): Promise<number> {
  let written = 0;
  for (const image of RESPONSIVE_IMAGES) written += await buildImage(image, outDir);
  return written;
}

async function buildImage(image: ResponsiveImage, outDir: string): Promise<number> {
  const source = path.join(ROOT, image.source);
  const input = readFileSync(source);
  const meta = await sharp(input).metadata();
  if (meta.width !== image.width || meta.height !== image.height) {
    throw new Error(
      `${image.source} is ${meta.width}×${meta.height}, src/shared/responsive-images.ts says ${image.width}×${image.height}`,
    );
  }
  const key = createHash('sha256')
    .update(input)
    .update(JSON.stringify({ widths: imageWidths(image), IMAGE_QUALITY, IMAGE_FORMATS }))
    .digest('hex')
    .slice(0, 16);
  const cached = path.join(CACHE, `${image.name}-${key}`);
  mkdirSync(cached, { recursive: true });
  const target = path.join(outDir, 'images');
  mkdirSync(target, { recursive: true });
  const jobs: Promise<void>[] = [];
  for (const width of imageWidths(image)) {
    for (const format of IMAGE_FORMATS) {
      const file = path.basename(imageUrl(image, width, format));
      const cachedFile = path.join(cached, file);
      if (!existsSync(cachedFile)) jobs.push(encode(input, width, format, cachedFile));
    }
  }
  await Promise.all(jobs);
  const files = readdirSync(cached);
  for (const file of files) copyFileSync(path.join(cached, file), path.join(target, file));
  return files.length;
}

async function encode(input: Buffer, width: number, format: ImageFormat, file: string) {
  const resized = sharp(input).resize({ width, withoutEnlargement: true });
  const encoded =
    format === 'avif'
      ? resized.avif({ quality: IMAGE_QUALITY, effort: 3 })
      : format === 'webp'
        ? resized.webp({ quality: IMAGE_QUALITY })
        : resized.jpeg({ quality: IMAGE_QUALITY, mozjpeg: true });
  await encoded.toFile(file);
}

if (import.meta.main) {
  const out = path.join(ROOT, 'dist', 'web');
  console.log(`${await buildImages(out)} image files in ${path.relative(ROOT, out)}/images`);
}
