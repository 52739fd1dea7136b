import { expect, test } from 'vitest';
import { publicConfigSchema } from '../../shared/public-config.ts';
import { parsePublicConfig } from './runtime-config.ts';

const valid = {
  identity: {
    endpoint: 'http://localhost:3000/idp',
    region: 'us-east-2',
    userPoolId: 'us-east-2_X',
    clientId: 'abc',
  },
  analytics: null,
};

test('accepts what the server sends, as the shared schema does', () => {
  for (const config of [
    valid,
    { ...valid, analytics: { key: 'phc_1', host: 'https://us.i.posthog.com' } },
  ]) {
    expect(parsePublicConfig(config)).toEqual(publicConfigSchema.parse(config));
  }
});

test.each([
  null,
  {},
  { identity: {}, analytics: null },
  { identity: { ...valid.identity, clientId: 1 }, analytics: null },
  { ...valid, analytics: { key: 'k' } },
  { identity: valid.identity },
])('refuses a malformed configuration: %j', (config) => {
  expect(() => parsePublicConfig(config)).toThrow(/configuration is not readable/);
  expect(publicConfigSchema.safeParse(config).success).toBe(false);
});
