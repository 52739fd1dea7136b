import { expect, test } from 'vitest';
import { webhookUrlProblem } from './webhook-address.ts';

test('a saved URL must be https and must not name a forbidden address', () => {
  expect(webhookUrlProblem('https://hooks.slack.com/services/T/B/x', false)).toBeNull();
  expect(webhookUrlProblem('http://hooks.slack.com/services/T/B/x', false)).toMatch(/https/);
  expect(webhookUrlProblem('ftp://example.com/', false)).toMatch(/https/);
  expect(webhookUrlProblem('not a url', false)).toMatch(/full URL/);
  expect(webhookUrlProblem('https://user:pw@example.com/', false)).toMatch(/password/);
  for (const host of [
    '127.0.0.1',
    '[::1]',
    '10.0.0.8',
    '169.254.169.254',
    '[fe80::1]',
    '[::7f00:1]',
    '[2002:7f00:1::1]',
    '192.88.99.1',
  ]) {
    expect(webhookUrlProblem(`https://${host}/hook`, false), host).toMatch(/private/);
  }
  // Allowed for tests and self-hosting.
  expect(webhookUrlProblem('http://127.0.0.1:8080/hook', true)).toBeNull();
});
