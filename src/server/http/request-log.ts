import type { MiddlewareHandler } from 'hono';
import type { Logger } from '../../platform/logger.ts';

/** One structured line per API request: method, path (no query string), status, duration. */
export function requestLog(logger: Logger): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    await next();
    const durationMs = Math.round((performance.now() - started) * 10) / 10;
    const status = c.res.status;
    const line = {
      method: c.req.method,
      path: c.req.path,
      status,
      durationMs,
      requestId: c.get('requestId'),
    };
    if (status >= 500) logger.error(line, 'request');
    else logger.info(line, 'request');
  };
}
