import { z } from 'zod';
import { count, httpUrl, optional, pollSeconds, withDefault } from '../shared/env-values.ts';
import { SOURCE_NAMES, type SourceName } from '../shared/sources.ts';
import { SOURCE_PLUGINS, SOURCE_SETTINGS } from '../sources/registry.ts';

/**
 * Every setting comes from the environment (and an optional `.env`), parsed once at start.
 * A wrong value stops start-up with one line naming the variable and what is wrong
 * (docs/decisions/0002-configuration.md). `.env.example` documents every variable.
 */

const port = z.coerce
  .number({ error: 'must be a whole number between 1 and 65535' })
  .int('must be a whole number between 1 and 65535')
  .min(0, 'must be a whole number between 1 and 65535')
  .max(65535, 'must be a whole number between 1 and 65535');

const seconds = (fallback: number, min: number, max: number) =>
  z.coerce
    .number({ error: `must be a whole number of seconds between ${min} and ${max}` })
    .int(`must be a whole number of seconds between ${min} and ${max}`)
    .min(min, `must be at least ${min} seconds`)
    .max(max, `must be at most ${max} seconds`)
    .default(fallback);

const postgresUrl = z
  .string()
  .trim()
  .refine(
    (value) => /^postgres(ql)?:\/\/[^\s]*$/.test(value) && URL.canParse(value),
    'must be a postgres:// or postgresql:// URL, e.g. postgres://user@127.0.0.1:5432/earshot',
  );

const smtpUrl = z
  .string()
  .trim()
  .refine(
    (value) => /^smtps?:\/\/[^\s]+$/.test(value) && URL.canParse(value),
    'must be an smtp:// or smtps:// URL, e.g. smtp://user:pass@mail.example.com:587',
  );

/** A comma-separated list of source names, or `none` to turn ingestion off. */
const sourceList = z.string().transform((value, ctx) => {
  if (value.trim().toLowerCase() === 'none') return [];
  const names = value
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '');
  for (const name of names) {
    if (!(SOURCE_NAMES as readonly string[]).includes(name)) {
      ctx.addIssue({
        code: 'custom',
        message: `names an unknown source "${name}" (known: ${SOURCE_NAMES.join(', ')}, or all or none)`,
      });
      return z.NEVER;
    }
  }
  return [...new Set(names)] as SourceName[];
});

export const envSchema = z
  .object({
    PORT: withDefault(port.default(3000)),
    DEV_PORT: withDefault(port.default(5173)),
    HOST: withDefault(z.string().trim().min(1).default('127.0.0.1')),
    PUBLIC_URL: optional(httpUrl),
    DATA_DIR: withDefault(z.string().trim().min(1).default('./data')),
    DATABASE_URL: optional(postgresUrl),
    LOG_LEVEL: withDefault(
      z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    ),
    POSTHOG_KEY: optional(z.string().trim().min(1)),
    POSTHOG_HOST: withDefault(httpUrl.default('https://us.i.posthog.com')),
    SMTP_URL: optional(smtpUrl),
    MAIL_FROM: withDefault(z.string().trim().min(3).default('Earshot <alerts@earshot.local>')),
    COGNITO_REGION: withDefault(
      z
        .string()
        .regex(/^[a-z]{2}(-gov)?-[a-z]+-\d$/, 'must be an AWS region such as us-east-2')
        .default('us-east-2'),
    ),
    COGNITO_USER_POOL_ID: optional(
      z
        .string()
        .regex(/^[a-z]{2}(-gov)?-[a-z]+-\d_[A-Za-z0-9]+$/, 'must look like us-east-2_AbCdEf123'),
    ),
    COGNITO_CLIENT_ID: optional(
      z
        .string()
        .regex(
          /^[a-z0-9]{1,128}$/,
          'must be a Cognito app client id (lower-case letters and digits)',
        ),
    ),
    COGNITO_CLIENT_SECRET: optional(z.string().min(1)),
    // Any Cognito-compatible service (another Earshot's /idp in tests); default AWS's regional one.
    COGNITO_ENDPOINT: optional(httpUrl),
    IDP_ACCESS_TOKEN_TTL_SECONDS: withDefault(seconds(3600, 5, 86_400)),
    IDP_REFRESH_TOKEN_TTL_SECONDS: withDefault(seconds(30 * 86_400, 60, 3650 * 86_400)),
    // argon2id cost of the embedded identity service; never below OWASP's minimum (19 MiB, 2 passes).
    IDP_PASSWORD_HASH_MEMORY_KIB: withDefault(
      z.coerce
        .number({ error: 'must be a whole number of KiB between 19456 and 1048576' })
        .int('must be a whole number of KiB between 19456 and 1048576')
        .min(19_456, 'must be at least 19456 KiB (OWASP minimum for argon2id)')
        .max(1_048_576, 'must be at most 1048576 KiB')
        .default(19_456),
    ),
    IDP_PASSWORD_HASH_PASSES: withDefault(
      z.coerce
        .number({ error: 'must be a whole number between 2 and 10' })
        .int('must be a whole number between 2 and 10')
        .min(2, 'must be at least 2 (OWASP minimum for argon2id)')
        .max(10, 'must be at most 10')
        .default(2),
    ),
    // Behind a reverse proxy: take the client address for rate limits from X-Forwarded-For.
    TRUST_PROXY: withDefault(
      z
        .enum(['true', 'false', '1', '0'], { error: 'must be true or false' })
        .default('false')
        .transform((value) => value === 'true' || value === '1'),
    ),
    // Enforced when a monitor is created (monitors and alerts, issue #13).
    MAX_MONITORS_PER_USER: withDefault(
      z.coerce.number({ error: 'must be a whole number' }).int().min(1).max(100_000).default(100),
    ),
    // What one account may cost the database (docs/decisions/XXXX-preview-budget.md): a monitor
    // may match at most this share of the recent items, and store this many matches an hour.
    MONITOR_MAX_MATCH_PERCENT: withDefault(
      z.coerce
        .number({ error: 'must be a number of percent between 0.1 and 100' })
        .min(0.1, 'must be at least 0.1 (percent)')
        .max(100, 'must be at most 100 (percent)')
        .default(10),
    ),
    MONITOR_MATCHES_PER_HOUR: withDefault(count(500, 1, 1_000_000)),
    // One preview's budget (items verified, milliseconds) and the share of the database's time
    // all previews together may take.
    PREVIEW_BUDGET_ITEMS: withDefault(count(2000, 10, 1_000_000)),
    PREVIEW_BUDGET_MS: withDefault(count(1000, 50, 60_000)),
    PREVIEW_DB_SHARE_PERCENT: withDefault(count(50, 1, 100)),
    // Ingestion (docs/product.md, "Sources"; docs/decisions/0011 and 0012).
    SOURCES: z.preprocess(
      (value) =>
        value === undefined || value === '' || String(value).trim().toLowerCase() === 'all'
          ? SOURCE_NAMES.join(',')
          : value,
      sourceList,
    ),
    ...SOURCE_SETTINGS,
    SOURCE_TIMEOUT_SECONDS: withDefault(pollSeconds(10)),
    ITEM_RETENTION_DAYS: withDefault(count(14, 1, 3650)),
    MATCH_SHARDS: withDefault(count(1, 1, 1024)),
    // Unset: a worker holds every shard it can get; set to 1 to spread shards over workers.
    MATCH_SHARDS_PER_WORKER: optional(count(1, 1, 1024)),
    // Delivery (docs/decisions/0015-delivery-outbox.md, 0016-webhooks.md).
    UNSUBSCRIBE_SECRET: optional(
      z.string().min(32, 'must be at least 32 characters (random, e.g. openssl rand -hex 32)'),
    ),
    ALERT_BATCH_SECONDS: withDefault(seconds(60, 0, 3600)),
    EMAIL_DAILY_CAP: withDefault(
      z.coerce.number({ error: 'must be a whole number' }).int().min(1).max(1_000_000).default(500),
    ),
    WEBHOOK_DAILY_CAP: withDefault(
      z.coerce.number({ error: 'must be a whole number' }).int().min(1).max(1_000_000).default(500),
    ),
    DELIVERY_POLL_MS: withDefault(
      z.coerce
        .number({ error: 'must be a whole number of milliseconds' })
        .int()
        .min(50, 'must be at least 50 ms')
        .max(600_000, 'must be at most 600000 ms')
        .default(2000),
    ),
    DELIVERY_LEASE_SECONDS: withDefault(seconds(120, 1, 3600)),
    DELIVERY_RETRY_BASE_SECONDS: withDefault(seconds(10, 1, 3600)),
    DELIVERY_MAX_ATTEMPTS: withDefault(
      z.coerce.number({ error: 'must be a whole number' }).int().min(1).max(1000).default(30),
    ),
    WEBHOOK_ALLOW_PRIVATE: withDefault(
      z
        .enum(['true', 'false', '1', '0'], { error: 'must be true or false' })
        .default('false')
        .transform((value) => value === 'true' || value === '1'),
    ),
    WEBHOOK_TIMEOUT_MS: withDefault(
      z.coerce
        .number({ error: 'must be a whole number of milliseconds' })
        .int()
        .min(100, 'must be at least 100 ms')
        .max(60_000, 'must be at most 60000 ms')
        .default(10_000),
    ),
    WEBHOOK_MAX_FAILURES: withDefault(
      z.coerce.number({ error: 'must be a whole number' }).int().min(1).max(1000).default(10),
    ),
  })
  .superRefine((env, ctx) => {
    for (const plugin of SOURCE_PLUGINS) {
      const problem = plugin.checkSettings?.(env);
      if (problem) ctx.addIssue({ code: 'custom', ...problem });
    }
    const cognito = [env.COGNITO_USER_POOL_ID, env.COGNITO_CLIENT_ID];
    if (cognito.some(Boolean) && !cognito.every(Boolean)) {
      ctx.addIssue({
        code: 'custom',
        path: [env.COGNITO_USER_POOL_ID ? 'COGNITO_CLIENT_ID' : 'COGNITO_USER_POOL_ID'],
        message: 'must be set together with the other COGNITO_* variable (or unset both)',
      });
    }
  });

export type Env = z.infer<typeof envSchema>;

export type Config = Env & {
  /** The URL at which browsers reach this server; derived from HOST and PORT when unset. */
  publicUrl: string;
};

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Parses the environment. Throws a ConfigError whose message is one line naming the first
 * bad variable and what is wrong; the others follow on the same line.
 */
export function parseConfig(source: Record<string, string | undefined>): Config {
  const result = envSchema.safeParse(source);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => {
      const name = issue.path.join('.') || 'environment';
      const given = typeof issue.path[0] === 'string' ? source[issue.path[0]] : undefined;
      const shown = given === undefined || isSecretName(name) ? '' : ` (got "${given}")`;
      return `${name} ${issue.message}${shown}`;
    });
    throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
  }
  const env = result.data;
  const browserHost = env.HOST === '0.0.0.0' || env.HOST === '::' ? 'localhost' : env.HOST;
  return {
    ...env,
    publicUrl:
      env.PUBLIC_URL ??
      `http://${browserHost.includes(':') ? `[${browserHost}]` : browserHost}:${env.PORT}`,
  };
}

function isSecretName(name: string): boolean {
  return /SECRET|PASSWORD|KEY|DATABASE_URL|SMTP_URL/.test(name);
}
