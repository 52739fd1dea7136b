import { expect, test } from 'vitest';
import { ForbiddenAddressError, isPublicAddress, publicOnlyLookup } from './public-address.ts';

test('private, loopback, link-local, reserved and transition addresses are not public', () => {
  for (const address of [
    '127.0.0.1',
    '127.8.9.10',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '192.0.2.1',
    '::1',
    '::',
    'fe80::1',
    '[fe80::1%eth0]',
    'fd00::1',
    'fc00::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:a9fe:a9fe',
    // IPv4-compatible (deprecated): 127.0.0.1 and 10.0.0.1 spelled inside ::/96.
    '::7f00:1',
    '::127.0.0.1',
    '::a00:1',
    // SIIT (RFC 6145) ::ffff:0:0:0/96.
    '::ffff:0:7f00:1',
    // NAT64, well-known and local-use (RFC 6052, RFC 8215).
    '64:ff9b::7f00:1',
    '64:ff9b:1::a00:1',
    '64:ff9b:1:ffff::1',
    // 6to4 (RFC 3056) and its relay anycast (RFC 3068).
    '2002:7f00:1::1',
    '2002::1',
    '192.88.99.1',
    // Teredo (RFC 4380).
    '2001::1',
    '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    '2001:db8::1',
    'ff02::1',
    'not an address',
    'localhost',
  ]) {
    expect(isPublicAddress(address), address).toBe(false);
  }
  for (const address of [
    '93.184.216.34',
    '1.1.1.1',
    '172.32.0.1',
    '2606:4700:4700::1111',
    '[2a00:1450:4001:80b::200e]',
    '::ffff:1.1.1.1',
  ]) {
    expect(isPublicAddress(address), address).toBe(true);
  }
});

function resolve(lookup: ReturnType<typeof publicOnlyLookup>, name: string) {
  return new Promise<unknown>((done, fail) => {
    lookup(name, { all: true }, (error, addresses) => (error ? fail(error) : done(addresses)));
  });
}

test('the lookup refuses a name that resolves to a non-public address, without saying which', async () => {
  const refused = resolve(publicOnlyLookup(), 'localhost');
  await expect(refused).rejects.toBeInstanceOf(ForbiddenAddressError);
  await expect(refused).rejects.toThrow(/^this address is not allowed$/);
  await expect(resolve(publicOnlyLookup({ allowPrivate: true }), 'localhost')).resolves.toEqual(
    expect.arrayContaining([expect.objectContaining({ address: expect.any(String) })]),
  );
});
