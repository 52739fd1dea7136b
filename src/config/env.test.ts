import { describe, expect, test } from 'vitest';
import { SOURCE_NAMES } from '../shared/sources.ts';
import { ConfigError, parseConfig } from './env.ts';

describe('configuration', () => {
  test('runs on defaults with nothing set', () => {
    const config = parseConfig({});
    expect(config).toMatchObject({
      PORT: 3000,
      HOST: '127.0.0.1',
      DATA_DIR: './data',
      LOG_LEVEL: 'info',
    });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.publicUrl).toBe('http://127.0.0.1:3000');
    expect(config.COGNITO_USER_POOL_ID).toBeUndefined();
  });

  test('SOURCES: every site by default and with all, a list, or none', () => {
    expect(parseConfig({}).SOURCES).toEqual(SOURCE_NAMES);
    expect(parseConfig({ SOURCES: 'all' }).SOURCES).toEqual(SOURCE_NAMES);
    expect(parseConfig({ SOURCES: ' Lobsters, hackernews,lobsters' }).SOURCES).toEqual([
      'lobsters',
      'hackernews',
    ]);
    expect(parseConfig({ SOURCES: 'none' }).SOURCES).toEqual([]);
  });

  test('empty values mean unset, so a copied .env.example works', () => {
    expect(parseConfig({ PORT: '', DATABASE_URL: '', POSTHOG_KEY: '' })).toMatchObject({
      PORT: 3000,
    });
  });

  test.each([
    [{ PORT: 'abc' }, /^Invalid configuration: PORT .*"abc"/],
    [{ PORT: '70000' }, /PORT/],
    [{ DATABASE_URL: 'nonsense' }, /DATABASE_URL must be a postgres:\/\//],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL/],
    [{ PUBLIC_URL: 'example.com' }, /PUBLIC_URL must be an http/],
    [{ SMTP_URL: 'mail.example.com' }, /SMTP_URL/],
    [{ COGNITO_USER_POOL_ID: 'us-east-2_abc' }, /COGNITO_CLIENT_ID must be set together/],
    [{ COGNITO_REGION: 'mars' }, /COGNITO_REGION/],
    [
      { SOURCES: 'hackernews,myspace' },
      /SOURCES names an unknown source "myspace" \(known: hackernews, reddit, lobsters/,
    ],
    [{ REDDIT_CLIENT_ID: 'abc' }, /REDDIT_CLIENT_SECRET must be set together/],
  ])('refuses %o with one line naming the variable', (env, message) => {
    expect(() => parseConfig(env)).toThrow(ConfigError);
    try {
      parseConfig(env);
    } catch (error) {
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message).not.toContain('\n');
    }
  });

  test('never echoes a secret value', () => {
    expect(() => parseConfig({ DATABASE_URL: 'mysql://u:hunter2@db' })).toThrow(/^(?!.*hunter2)/);
  });

  test('a real Cognito pool is named by its pool id and client id together', () => {
    const config = parseConfig({
      COGNITO_USER_POOL_ID: 'us-east-2_AbC123',
      COGNITO_CLIENT_ID: 'abc123',
    });
    expect(config).toMatchObject({
      COGNITO_USER_POOL_ID: 'us-east-2_AbC123',
      COGNITO_CLIENT_ID: 'abc123',
    });
  });

  test('COGNITO_ENDPOINT is an optional http(s) URL, without a trailing slash', () => {
    expect(parseConfig({}).COGNITO_ENDPOINT).toBeUndefined();
    expect(parseConfig({ COGNITO_ENDPOINT: 'http://127.0.0.1:4000/idp/' }).COGNITO_ENDPOINT).toBe(
      'http://127.0.0.1:4000/idp',
    );
    expect(() => parseConfig({ COGNITO_ENDPOINT: 'cognito-idp' })).toThrow(
      /^Invalid configuration: COGNITO_ENDPOINT/,
    );
  });
});
