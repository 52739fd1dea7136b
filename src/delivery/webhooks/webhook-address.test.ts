import { expect, test } from 'vitest';
import { isForbiddenAddress, webhookUrlProblem } from './webhook-address.ts';

test('private, loopback, link-local and reserved addresses are forbidden; public ones are not', () => {
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
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    'fc00::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:a9fe:a9fe',
    'not an address',
  ]) {
    expect(isForbiddenAddress(address), address).toBe(true);
  }
  for (const address of ['93.184.216.34', '1.1.1.1', '172.32.0.1', '2606:4700:4700::1111']) {
    expect(isForbiddenAddress(address), address).toBe(false);
  }
});

test('a saved URL must be https and must not name a forbidden address', () => {
  expect(webhookUrlProblem('https://hooks.slack.com/services/T/B/x', false)).toBeNull();
  expect(webhookUrlProblem('http://hooks.slack.com/services/T/B/x', false)).toMatch(/https/);
  expect(webhookUrlProblem('ftp://example.com/', false)).toMatch(/https/);
  expect(webhookUrlProblem('not a url', false)).toMatch(/full URL/);
  expect(webhookUrlProblem('https://user:pw@example.com/', false)).toMatch(/password/);
  for (const host of ['127.0.0.1', '[::1]', '10.0.0.8', '169.254.169.254', '[fe80::1]']) {
    expect(webhookUrlProblem(`https://${host}/hook`, false), host).toMatch(/private/);
  }
  // Allowed for tests and self-hosting.
  expect(webhookUrlProblem('http://127.0.0.1:8080/hook', true)).toBeNull();
});
