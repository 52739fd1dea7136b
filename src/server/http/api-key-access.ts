import type { ApiKeyScope } from '../../shared/api-keys.ts';

/**
 * What an API request needs when it comes with an API key instead of an access token: `account`
 * routes (the user's record, email, password, deletion, the keys themselves, and the live feed,
 * which is tied to a sign-in session) never take a key; reads take either scope; everything else
 * changes something and needs `write`. One table for every route, so a new route is covered.
 */
export type ApiKeyAccess = 'account' | ApiKeyScope;

const ACCOUNT_PREFIXES = ['/api/user', '/api/api-keys', '/api/events'];
/**
 * POST routes that only read: the monitor preview runs a query over stored items, the feed
 * preview looks at a URL; neither saves anything.
 */
const READING_POSTS = new Set(['/api/monitors/preview', '/api/feeds/preview']);

export function apiKeyAccess(method: string, path: string): ApiKeyAccess {
  if (ACCOUNT_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`))) {
    return 'account';
  }
  if (method === 'GET' || method === 'HEAD') return 'read';
  if (method === 'POST' && READING_POSTS.has(path)) return 'read';
  return 'write';
}

/** Whether a key of `scope` may make a request that needs `access`. */
export function scopeAllows(scope: ApiKeyScope, access: ApiKeyAccess): boolean {
  if (access === 'account') return false;
  return access === 'read' || scope === 'write';
}
