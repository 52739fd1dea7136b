import {
  ALERTS_SCREENSHOT,
  imageSrcSet,
  imageUrl,
  imageWidths,
} from '../../../shared/responsive-images.ts';

// The picture is as wide as the page's content column (max-w-6xl less its padding): the whole
// phone width below 1200 px. `sizes` lets a phone take the 640 or 828 px file, not the 2048.
const SIZES = '(min-width: 1200px) 1104px, calc(100vw - 2rem)';

/**
 * The real Alerts page (a screenshot the browser suite makes), as AVIF or WebP where the
 * browser reads them and JPEG elsewhere, at the width the screen needs, lazy loaded.
 */
export function ProductPicture() {
  const image = ALERTS_SCREENSHOT;
  const fallbackWidth = imageWidths(image).find((width) => width >= 1200) ?? image.width;
  return (
    <picture>
      <source type="image/avif" srcSet={imageSrcSet(image, 'avif')} sizes={SIZES} />
      <source type="image/webp" srcSet={imageSrcSet(image, 'webp')} sizes={SIZES} />
      <img
        src={imageUrl(image, fallbackWidth, 'jpeg')}
        srcSet={imageSrcSet(image, 'jpeg')}
        sizes={SIZES}
        width={image.width}
        height={image.height}
        loading="lazy"
        decoding="async"
        alt="The Alerts page: a chart of mentions per day above a feed of posts from Hacker News, Reddit and Lobsters, each with the matched words highlighted."
        className="h-auto w-full rounded-xl border shadow-xl"
        data-testid="product-picture"
      />
    </picture>
  );
}
