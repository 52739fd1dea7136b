import type { MiddlewareHandler } from 'hono';
import type { Logger } from '../../platform/logger.ts';

/**
 * Requests carrying X-Forwarded-For while TRUST_PROXY is off mean Earshot sits behind a proxy it
 * does not trust: every client then shares the proxy's address, and per-address limits count
 * them together. Warn once, the first time it happens after start.
 */
export function warnUntrustedForwarding(logger: Logger, trustProxy: boolean): MiddlewareHandler {
  let warned = trustProxy;
  return async (c, next) => {
    if (!warned && c.req.header('x-forwarded-for') !== undefined) {
      warned = true;
      logger.warn(
        'requests arrive with X-Forwarded-For but TRUST_PROXY is off: per-address limits see the proxy address for every client; set TRUST_PROXY=true behind your own reverse proxy',
      );
    }
    await next();
  };
}
