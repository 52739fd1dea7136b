import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';

/**
 * Tables of the embedded Cognito-compatible identity service (src/identity/embedded). They are
 * created in every deployment but only used when no real Cognito pool is configured. The app's
 * own `users` table is separate: its `id` equals `idp_users.sub`, with no foreign key, because
 * with a real Cognito pool there is no `idp_users` row at all.
 *
 * Every time that decides something (expiry, lockout, rate windows) is written from the
 * service's injected clock, never from the database's `now()`, so tests can move time.
 */

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const IDP_USER_STATUSES = ['UNCONFIRMED', 'CONFIRMED'] as const;
export type IdpUserStatus = (typeof IDP_USER_STATUSES)[number];

export const IDP_CODE_PURPOSES = ['signup', 'reset', 'email'] as const;
export type IdpCodePurpose = (typeof IDP_CODE_PURPOSES)[number];

export const IDP_TOKEN_USES = ['access', 'id'] as const;
export type IdpTokenUse = (typeof IDP_TOKEN_USES)[number];

/** The one user pool: its AWS-style id and the app client the web app uses. Exactly one row. */
export const idpPool = pgTable(
  'idp_pool',
  {
    id: smallint('id').primaryKey().default(1),
    userPoolId: text('user_pool_id').notNull(),
    webClientId: text('web_client_id').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (table) => [check('idp_pool_single_row', sql`${table.id} = 1`)],
);

/** App clients (Cognito's "user pool clients"). `secret` null means a public (browser) client. */
export const idpClients = pgTable('idp_clients', {
  clientId: text('client_id').primaryKey(),
  name: text('name').notNull(),
  secret: text('secret'),
  createdAt: at('created_at').notNull().defaultNow(),
});

/**
 * RS256 key pairs as JWKs, one signing key per token use (as Cognito does). The newest key of a
 * use without `retired_at` signs; every key stays in the published JWKS until it is deleted, so
 * keys can rotate without invalidating tokens in flight.
 */
export const idpSigningKeys = pgTable(
  'idp_signing_keys',
  {
    kid: text('kid').primaryKey(),
    tokenUse: text('token_use', { enum: IDP_TOKEN_USES }).notNull(),
    publicJwk: jsonb('public_jwk').notNull().$type<Record<string, string>>(),
    privateJwk: jsonb('private_jwk').notNull().$type<Record<string, string>>(),
    createdAt: at('created_at').notNull(),
    retiredAt: at('retired_at'),
  },
  (table) => [
    check('idp_signing_keys_token_use_check', sql`${table.tokenUse} in ('access', 'id')`),
  ],
);

/** Identities. The e-mail address is the user name (stored lower-cased); `sub` is the internal one. */
export const idpUsers = pgTable(
  'idp_users',
  {
    sub: uuid('sub').primaryKey(),
    email: text('email').notNull().unique(),
    passwordHash: text('password_hash').notNull(),
    status: text('status', { enum: IDP_USER_STATUSES }).notNull(),
    emailVerified: boolean('email_verified').notNull().default(false),
    givenName: text('given_name'),
    familyName: text('family_name'),
    /**
     * A new address waiting for VerifyUserAttribute (UpdateUserAttributes with `email`). Until
     * then `email` stays the user name, as in a Cognito pool that keeps the original value
     * active while an update is pending.
     */
    pendingEmail: text('pending_email'),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
  },
  (table) => [
    check('idp_users_status_check', sql`${table.status} in ('UNCONFIRMED', 'CONFIRMED')`),
  ],
);

/**
 * The one outstanding code per e-mail address and purpose (`email`: verifying a pending new
 * address, keyed by the current one) (a new code replaces the old one).
 * Keyed by the address rather than the user so that requests for unknown addresses can store a
 * decoy that nobody receives: confirming it then fails exactly as for a real account.
 */
export const idpCodes = pgTable(
  'idp_codes',
  {
    email: text('email').notNull(),
    purpose: text('purpose', { enum: IDP_CODE_PURPOSES }).notNull(),
    sub: uuid('sub').references(() => idpUsers.sub, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    failedAttempts: integer('failed_attempts').notNull().default(0),
    expiresAt: at('expires_at').notNull(),
    createdAt: at('created_at').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.email, table.purpose] }),
    index('idp_codes_sub_idx').on(table.sub),
    check('idp_codes_purpose_check', sql`${table.purpose} in ('signup', 'reset', 'email')`),
  ],
);

/**
 * A sign-in session: one refresh token (stored as its SHA-256) and every access and ID token
 * refreshed from it, which carry `origin_jti`. Revoking the session makes all of them unusable.
 */
export const idpSessions = pgTable(
  'idp_sessions',
  {
    originJti: uuid('origin_jti').primaryKey(),
    sub: uuid('sub')
      .notNull()
      .references(() => idpUsers.sub, { onDelete: 'cascade' }),
    clientId: text('client_id')
      .notNull()
      .references(() => idpClients.clientId, { onDelete: 'cascade' }),
    refreshTokenHash: text('refresh_token_hash').notNull().unique(),
    eventId: uuid('event_id').notNull(),
    authTime: at('auth_time').notNull(),
    expiresAt: at('expires_at').notNull(),
    revokedAt: at('revoked_at'),
  },
  (table) => [index('idp_sessions_sub_idx').on(table.sub)],
);

/** Fixed-window counters for rate limits, shared by every process on the same database. */
export const idpRateCounters = pgTable('idp_rate_counters', {
  key: text('key').primaryKey(),
  windowStartedAt: at('window_started_at').notNull(),
  count: integer('count').notNull(),
});

/**
 * Sign-in attempts per user name since its last success, for the lockout: each attempt is counted
 * before its password is checked (`failures`, `last_failure_at`), and a success deletes the row.
 * Keyed by the name typed (normalised) for unknown users too, so a lockout looks the same whether
 * or not the account exists.
 */
export const idpSignInFailures = pgTable('idp_sign_in_failures', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull(),
  lastFailureAt: at('last_failure_at').notNull(),
  lockedUntil: at('locked_until'),
});
