import { type PublicConfig, publicConfigSchema } from '../../shared/public-config.ts';

let pending: Promise<PublicConfig> | null = null;

/** GET /api/config once per page load; a failure is not cached, so "Try again" refetches. */
export function loadRuntimeConfig(): Promise<PublicConfig> {
  pending ??= fetch('/api/config', { headers: { Accept: 'application/json' } })
    .then(async (response) => {
      if (!response.ok) throw new Error(`The server answered ${response.status}.`);
      return publicConfigSchema.parse(await response.json());
    })
    .catch((error: unknown) => {
      pending = null;
      throw error;
    });
  return pending;
}
