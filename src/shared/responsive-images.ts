/**
 * Responsive images built at build time (scripts/build-images.ts), the widths and quality of
 * docs/product.md, "Constants": large images at the device widths, small ones at the icon sizes.
 * A width above the source's is never made (no upscaling).
 */
export const LARGE_IMAGE_WIDTHS = [640, 750, 828, 1080, 1200, 1920, 2048, 3840] as const;
export const SMALL_IMAGE_WIDTHS = [16, 32, 48, 64, 96, 128, 256, 384] as const;
export const IMAGE_QUALITY = 75;
/** Best first: a browser takes the first `<source>` type it knows; the JPEG is the fallback. */
export const IMAGE_FORMATS = ['avif', 'webp', 'jpeg'] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];

export type ResponsiveImage = {
  /** File name stem under /images/. */
  name: string;
  /** The source, relative to the repository root. */
  source: string;
  /** The source's size in pixels (checked at build time). */
  width: number;
  height: number;
  kind: 'large' | 'small';
};

/**
 * The real Alerts page, as the browser suite screenshots it (1280 × 900 CSS px at 2×, written to
 * docs/screenshots/alerts-home.png). The home page's copy is updated by hand from there, so that a
 * test run, which rewrites the screenshots, never makes the built app stale.
 */
export const ALERTS_SCREENSHOT: ResponsiveImage = {
  name: 'alerts-page',
  source: 'src/web/assets/home-picture.png',
  width: 2560,
  height: 1800,
  kind: 'large',
};

export const RESPONSIVE_IMAGES: readonly ResponsiveImage[] = [ALERTS_SCREENSHOT];

export function imageWidths(image: ResponsiveImage): number[] {
  const widths = image.kind === 'large' ? LARGE_IMAGE_WIDTHS : SMALL_IMAGE_WIDTHS;
  return widths.filter((width) => width <= image.width);
}

export function imageUrl(image: ResponsiveImage, width: number, format: ImageFormat): string {
  return `/images/${image.name}-${width}.${format === 'jpeg' ? 'jpg' : format}`;
}

/** The `srcset` of one format: every width, as `url 640w, …`. */
export function imageSrcSet(image: ResponsiveImage, format: ImageFormat): string {
  return imageWidths(image)
    .map((width) => `${imageUrl(image, width, format)} ${width}w`)
    .join(', ');
}
