import { isIP } from 'node:net';
import { isPublicAddress } from '../../platform/public-address.ts';

/**
 * Which URLs a webhook may call (docs/decisions/0016-webhooks.md): https, and public addresses
 * only (`isPublicAddress`), so a webhook cannot be aimed at the server's own network. Checked when
 * a URL is saved (scheme and literal addresses) and again on the addresses a name resolves to at
 * send time (`publicOnlyLookup` in post-webhook.ts). WEBHOOK_ALLOW_PRIVATE lifts both rules.
 *
 * Why a URL cannot be a webhook when saved, or null. Names are resolved only when sending.
 */
export function webhookUrlProblem(value: string, allowPrivate: boolean): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be a full URL, such as https://hooks.slack.com/services/…';
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) {
    return 'must start with https://';
  }
  if (url.username || url.password) return 'must not contain a user name or password';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!allowPrivate && isIP(host) !== 0 && !isPublicAddress(host)) {
    return 'must not point to a private, loopback or link-local address';
  }
  return null;
}
