import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Which addresses an outbound request on a user's behalf may reach (webhooks today, feeds by URL
 * later): public unicast ones only, so a URL a user typed cannot aim the server at its own
 * network (docs/decisions/0016-webhooks.md). The special-use lists are ipaddr.js's `range()`
 * (private, loopback, link-local, CGNAT, multicast, reserved, NAT64, 6to4, Teredo, ORCHID…), not
 * a list of ours. On top of it:
 *
 * - an IPv4-mapped IPv6 address is judged as the IPv4 address it carries;
 * - an IPv6 address must also lie in global unicast, 2000::/3: this refuses the deprecated
 *   IPv4-compatible `::a.b.c.d` (`::7f00:1` is 127.0.0.1), which ipaddr.js calls unicast, and any
 *   space IANA has not allocated;
 * - the transition ranges that carry an IPv4 address (6to4 2002::/16, Teredo 2001::/32, NAT64
 *   64:ff9b::/96 and 64:ff9b:1::/48, SIIT ::ffff:0:0:0/96, the 6to4 relay 192.88.99.0/24) are
 *   refused whole rather than judged by the address inside: a relay may deliver them anywhere.
 */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (isIP(bare) === 0) return false;
  let parsed = ipaddr.parse(bare);
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) parsed = v6.toIPv4Address();
    else if (!v6.match(GLOBAL_UNICAST)) return false;
  }
  return parsed.range() === 'unicast';
}

const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3') as [ipaddr.IPv6, number];

/**
 * A request refused by the address rules. Its message is shown to the user (a webhook's test
 * result, its paused reason): it never says what a name resolved to inside the server's network.
 */
export class ForbiddenAddressError extends Error {
  override name = 'ForbiddenAddressError';
  constructor(message = 'this address is not allowed') {
    super(message);
  }
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for `http(s).request` (or any socket) that resolves the name once, refuses it when
 * any of its addresses is not public, and hands the checked addresses to the connection, so no
 * second lookup can rebind the name. `allowPrivate` (self-hosting, tests) lifts the rule;
 * `isAllowed` replaces `isPublicAddress` (a test's own loopback address).
 */
export function publicOnlyLookup(
  options: { allowPrivate?: boolean; isAllowed?: (address: string) => boolean } = {},
) {
  const isAllowed = options.isAllowed ?? isPublicAddress;
  return (hostname: string, lookupOptions: { all?: boolean }, callback: LookupCallback): void => {
    dnsLookup(hostname, { all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      if (!options.allowPrivate && addresses.some((entry) => !isAllowed(entry.address))) {
        return callback(new ForbiddenAddressError(), []);
      }
      const [first] = addresses;
      if (!first) return callback(new Error(`${hostname} has no address`), []);
      if (lookupOptions.all) return callback(null, addresses);
      return callback(null, first.address, first.family);
    });
  };
}

/**
 * The address rule of a fetch on a user's behalf, as `fetchFeed` takes it: public addresses only,
 * by name (`publicOnlyLookup`) and by literal (`isPublicAddress`); null when `allowPrivate`.
 */
export function publicAddressRule(allowPrivate: boolean) {
  return allowPrivate ? null : { lookup: publicOnlyLookup(), isAllowed: isPublicAddress };
}
