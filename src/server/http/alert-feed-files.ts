import { createHash } from 'node:crypto';
import { Hono } from 'hono';
import { readAlertFeed } from '../../core/alert-feeds/read-alert-feed.ts';
import { NotFoundError } from '../../core/errors.ts';
import { clientAddress } from '../../platform/client-address.ts';
import { createRateWindow } from '../../platform/rate-window.ts';
import { ALERT_FEED_FILES, type AlertFeedFormat } from '../../shared/alert-feeds.ts';
import type { AppDeps } from '../app-deps.ts';
import { createErrorHandler, jsonError } from './errors.ts';

/** The prefix the feeds are served under: `/feeds/<token>/rss.xml`. */
export const ALERT_FEED_FILES_PATH = '/feeds';

const FORMAT_OF_FILE = new Map(
  Object.entries(ALERT_FEED_FILES).map(([format, file]) => [file, format as AlertFeedFormat]),
);

/**
 * Unknown or reset tokens one address may ask for a minute before those get 429 (nobody guesses
 * 192 bits: this bounds the database reads a scanner costs).
 */
const MISSES_PER_MINUTE = 60;

/**
 * GET /feeds/<token>/(rss.xml|atom.xml|feed.json): an alert feed for feed readers, which cannot
 * sign in: the token in the URL is the proof (docs/decisions/0039-alert-feeds.md). Answers carry
 * a strong ETag of the body, and a matching `If-None-Match` is answered 304 without it. A token
 * that was never made or has been reset is 404 in the API's error shape.
 */
export function createAlertFeedFiles(deps: Pick<AppDeps, 'database' | 'config' | 'logger'>) {
  const misses = createRateWindow({ limit: MISSES_PER_MINUTE, windowMs: 60_000 });
  const app = new Hono();
  app.onError(createErrorHandler(deps.logger));
  app.get('/:token/:file', async (c) => {
    const format = FORMAT_OF_FILE.get(c.req.param('file'));
    const feed = format
      ? await readAlertFeed(
          { db: deps.database.db, config: deps.config },
          { token: c.req.param('token'), format },
        ).catch((error: unknown) => {
          if (error instanceof NotFoundError) return null;
          throw error;
        })
      : null;
    if (!feed) {
      // Only misses are counted and refused: a valid link keeps working from a busy address.
      const address = clientAddress(c, deps.config.TRUST_PROXY);
      if (misses.exceeded(address)) {
        c.header('Retry-After', '60');
        return jsonError(c, 'RATE_LIMITED', 'Too many requests for feeds that do not exist.');
      }
      misses.hit(address);
      return jsonError(
        c,
        'NOT_FOUND',
        'There is no such feed. Its link may have been reset: copy the new one.',
      );
    }
    const etag = `"${createHash('sha256').update(feed.body).digest('base64url').slice(0, 32)}"`;
    // Private: the URL is a secret, so no shared cache should keep it; readers revalidate.
    c.header('Cache-Control', 'private, no-cache');
    c.header('ETag', etag);
    c.header('Referrer-Policy', 'no-referrer');
    if (matchesEtag(c.req.header('if-none-match'), etag)) return c.body(null, 304);
    c.header('Content-Type', feed.contentType);
    return c.body(feed.body, 200);
  });
  return app;
}

/** Whether an If-None-Match header names `etag` (a list, weak forms, or `*`). */
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === etag || tag === '*');
}
