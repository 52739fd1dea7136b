import type { MiddlewareHandler } from 'hono';
import { jsonError } from './errors.ts';

type RouteEntry = { method: string; path: string };

/**
 * Answers 404 for /api paths no route serves, before authentication: an unknown path is "not
 * found" for everyone, signed in or not. The route table is read at the first request, once every
 * route is mounted.
 */
export function unknownApiPathsAnswer404(routes: () => readonly RouteEntry[]): MiddlewareHandler {
  let known: RegExp[] | null = null;
  return async (c, next) => {
    known ??= routes()
      .filter((route) => route.method !== 'ALL' && !route.path.includes('*'))
      .map((route) => patternFor(route.path));
    const path = c.req.path.replace(/\/+$/, '') || '/';
    if (known.some((pattern) => pattern.test(path))) return next();
    return jsonError(c, 'NOT_FOUND', `There is no API endpoint ${c.req.method} ${c.req.path}.`);
  };
}

function patternFor(routePath: string): RegExp {
  const source = routePath
    .replace(/\/+$/, '')
    .split('/')
    .map((segment) =>
      segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('/');
  return new RegExp(`^${source || '/'}$`);
}
