import type { PublicConfig } from '../../shared/public-config.ts';

let pending: Promise<PublicConfig> | null = null;

/** GET /api/config once per page load; a failure is not cached, so "Try again" refetches. */
export function loadRuntimeConfig(): Promise<PublicConfig> {
  pending ??= fetch('/api/config', { headers: { Accept: 'application/json' } })
    .then(async (response) => {
      if (!response.ok) throw new Error(`The server answered ${response.status}.`);
      return parsePublicConfig(await response.json());
    })
    .catch((error: unknown) => {
      pending = null;
      throw error;
    });
  return pending;
}

/**
 * Checks the shape by hand rather than with the shared zod schema: this runs on every page, and
 * zod would add tens of kilobytes to the first download for four strings.
 */
export function parsePublicConfig(value: unknown): PublicConfig {
  const fail = (what: string): never => {
    throw new Error(`The server's configuration is not readable (${what}).`);
  };
  if (!isRecord(value) || !isRecord(value.identity)) return fail('identity');
  const { endpoint, region, userPoolId, clientId } = value.identity;
  if (![endpoint, region, userPoolId, clientId].every((field) => typeof field === 'string'))
    return fail('identity');
  let analytics: PublicConfig['analytics'] = null;
  if (value.analytics !== null) {
    if (
      !isRecord(value.analytics) ||
      typeof value.analytics.key !== 'string' ||
      typeof value.analytics.host !== 'string'
    ) {
      return fail('analytics');
    }
    analytics = { key: value.analytics.key, host: value.analytics.host };
  }
  return {
    identity: {
      endpoint: String(endpoint),
      region: String(region),
      userPoolId: String(userPoolId),
      clientId: String(clientId),
    },
    analytics,
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
