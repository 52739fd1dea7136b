/**
 * Secrets that arrive in a page's address (the unsubscribe link's `token`) leave the address bar
 * before anything else runs: analytics (PostHog copies the address into every event, its
 * feature-flag requests and recordings), the browser's history, a shared screenshot. The page
 * reads them from here. They are kept in the history entry's state, so a reload of the same
 * entry still has them and another visit to the page without them does not.
 */
const PARAMETERS = ['token'] as const;
type SecretName = (typeof PARAMETERS)[number];
type Secrets = { path: string } & Partial<Record<SecretName, string>>;
const STATE_KEY = 'earshotAddressSecrets';

let taken: Secrets | null = null;

/** Moves the secret parameters of the current address into the history entry. Call first. */
export function takeAddressSecrets(): void {
  const state: unknown = window.history.state;
  const kept =
    state && typeof state === 'object' && STATE_KEY in state
      ? ((state as Record<string, unknown>)[STATE_KEY] as Secrets)
      : null;
  const url = new URL(window.location.href);
  const found = PARAMETERS.filter((name) => url.searchParams.has(name));
  if (found.length === 0) {
    // Kept only when this entry is shown again (a reload, back or forward), not on a new visit.
    const navigation = performance.getEntriesByType('navigation')[0] as
      | PerformanceNavigationTiming
      | undefined;
    taken = navigation?.type === 'navigate' ? null : kept;
    return;
  }
  const secrets: Secrets = { path: url.pathname };
  for (const name of found) {
    secrets[name] = url.searchParams.get(name) ?? '';
    url.searchParams.delete(name);
  }
  taken = secrets;
  const next = { ...(state && typeof state === 'object' ? state : {}), [STATE_KEY]: secrets };
  window.history.replaceState(next, '', `${url.pathname}${url.search}${url.hash}`);
}

/** A secret the address of the page first opened carried, while that page is shown; or null. */
export function addressSecret(name: SecretName): string | null {
  return taken?.path === window.location.pathname ? (taken[name] ?? null) : null;
}
