import type { PostHog } from 'posthog-js';
import type { PublicConfig } from '../../shared/public-config.ts';
import { redactSecrets, redactUrl } from './analytics-redaction.ts';

/**
 * PostHog, only when the server names a key: without one the library is not even downloaded,
 * so no analytics request ever leaves the browser.
 */
let client: PostHog | null = null;
let identified: string | null = null;
/** The user known before PostHog finished loading; identified as soon as it has. */
let pending: { sub: string; email: string } | null = null;

export async function initAnalytics(settings: PublicConfig['analytics']): Promise<void> {
  if (!settings || client) return;
  const { default: posthog } = await import('posthog-js');
  posthog.init(settings.key, {
    api_host: settings.host,
    person_profiles: 'identified_only',
    capture_pageview: 'history_change',
    capture_exceptions: true,
    disable_session_recording: false,
    session_recording: {
      maskAllInputs: true,
      // Network timings of recordings carry request URLs (`/api/events?ticket=…`).
      maskCapturedNetworkRequestFn: (request) => ({ ...request, name: redactUrl(request.name) }),
    },
    // Every event, recordings included, loses the secrets its URLs carry (analytics-redaction.ts).
    before_send: (event) => (event ? redactSecrets(event) : event),
  });
  client = posthog;
  if (pending) identifyUser(pending.sub, pending.email);
}

/** docs/product.md, "Analytics": after load, identify the user by sub and email. */
export function identifyUser(sub: string, email: string): void {
  if (!client) {
    pending = { sub, email };
    return;
  }
  pending = null;
  if (identified === sub) return;
  client.identify(sub, { email });
  identified = sub;
}

export function resetAnalytics(): void {
  identified = null;
  pending = null;
  client?.reset();
}
