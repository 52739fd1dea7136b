import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/**
 * Which addresses a webhook may reach (docs/decisions/0016-webhooks.md): public ones only, never
 * private, loopback, link-local, shared (CGNAT), multicast or reserved space, so a webhook cannot
 * be aimed at the server's own network. Checked when a URL is saved (scheme and literal
 * addresses) and again on the addresses a name resolves to at send time, which are then the
 * addresses connected to (no second lookup to rebind). WEBHOOK_ALLOW_PRIVATE lifts both rules.
 */

const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv6');
}

/** True for an address a webhook must not reach (IPv4-mapped IPv6 is judged as its IPv4). */
export function isForbiddenAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  if (mapped?.[1]) return blocked.check(mapped[1], 'ipv4');
  const family = isIP(bare);
  if (family === 4) return blocked.check(bare, 'ipv4');
  if (family === 6) {
    // ::ffff:7f00:1 spells 127.0.0.1 in hex.
    const hexMapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(bare);
    if (hexMapped?.[1] && hexMapped[2]) {
      const high = Number.parseInt(hexMapped[1], 16);
      const low = Number.parseInt(hexMapped[2], 16);
      return blocked.check(`${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`, 'ipv4');
    }
    return blocked.check(bare, 'ipv6');
  }
  return true;
}

export class ForbiddenWebhookAddressError extends Error {
  override name = 'ForbiddenWebhookAddressError';
  readonly code = 'EWEBHOOKADDRESS';
}

/** Why a URL cannot be a webhook when saved, or null. Names are resolved only when sending. */
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
  if (!allowPrivate && isIP(host) !== 0 && isForbiddenAddress(host)) {
    return 'must not point to a private, loopback or link-local address';
  }
  return null;
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for http(s).request that resolves the name once, refuses it when any address is
 * forbidden, and hands the checked addresses to the connection.
 */
export function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback) => {
    dnsLookup(hostname, { all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const forbidden = addresses.find((entry) => isForbiddenAddress(entry.address));
      if (forbidden && !allowPrivate) {
        return callback(
          new ForbiddenWebhookAddressError(
            `${hostname} resolves to ${forbidden.address}, a private, loopback or link-local address`,
          ),
          [],
        );
      }
      const [first] = addresses;
      if (!first) return callback(new Error(`${hostname} has no address`), []);
      if (options.all) return callback(null, addresses);
      return callback(null, first.address, first.family);
    });
  };
}
