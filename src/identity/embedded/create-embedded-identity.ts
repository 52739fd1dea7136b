import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { Config } from '../../config/env.ts';
import { ADVISORY_LOCKS } from '../../db/advisory-locks.ts';
import type { Database, DatabaseHandle } from '../../db/client.ts';
import { idpClients, idpPool, idpUsers } from '../../db/schema/identity.ts';
import { type Clock, systemClock } from '../../platform/clock.ts';
import type { Logger } from '../../platform/logger.ts';
import type { Mailer } from '../../platform/mailer.ts';
import { type IdentityProfile, type IdentityProvider, InvalidTokenError } from '../port.ts';
import { createAccessTokenVerifier } from '../verify-access-token.ts';
import { sweepCodes } from './codes.ts';
import type { ServiceContext } from './context.ts';
import { ensureSigningKeys, loadSigningKeys } from './keys.ts';
import { createLimiter, type LimitOverrides, resolveLimits } from './limits.ts';
import {
  checkPasswordPolicy,
  createPasswordHasher,
  DEFAULT_PASSWORD_POLICY,
  type PasswordHashCost,
  type PasswordPolicy,
} from './passwords.ts';
import { createClientId, createClientSecret, createUserPoolId } from './secrets.ts';
import { isSessionActive, sweepSessions } from './sessions.ts';
import { findUserBySub, normalizeUsername } from './store.ts';
import { createWireRoutes } from './wire.ts';

export type EmbeddedIdentityOptions = {
  config: Config;
  database: DatabaseHandle;
  logger: Logger;
  mailer: Mailer;
  /** Defaults to the system clock; tests pass a clock they can move. */
  clock?: Clock;
  /** Overrides of single limits (tests, the benchmark); defaults are Cognito's. */
  limits?: LimitOverrides;
  passwordPolicy?: Partial<PasswordPolicy>;
  /**
   * Tests only: an argon2id cost below OWASP's minimum, which configuration refuses, so that
   * hundreds of test sign-ins do not spend minutes hashing. Default: the configured cost.
   */
  passwordHashCost?: PasswordHashCost;
};

export type EmbeddedIdentity = IdentityProvider & {
  kind: 'embedded';
  userPoolId: string;
  /** The app client of the web app: the only client whose tokens the product API accepts. */
  clientId: string;
  issuer: string;
  /**
   * Administration from inside the process (what Cognito's signed Admin* APIs and console do);
   * not reachable over HTTP. Tests and scripts use it to seed users and add clients.
   */
  admin: {
    createAppClient(options: {
      name: string;
      withSecret: boolean;
    }): Promise<{ clientId: string; clientSecret: string | null }>;
    createUser(options: {
      email: string;
      password: string;
      givenName?: string;
      familyName?: string;
      confirmed?: boolean;
    }): Promise<{ sub: string }>;
    rotateSigningKeys(): Promise<void>;
    /** Deletes expired codes, dead sessions and old counters (also runs every 10 minutes). */
    sweep(): Promise<void>;
  };
};

const SWEEP_INTERVAL_MS = 10 * 60 * 1000;
const CLOSE_WAIT_MS = 5000;

/**
 * The embedded Cognito-compatible identity service: on first start it creates the user pool
 * (an AWS-style pool id), the web app's client (26 characters, no secret) and the signing keys,
 * all kept in the database; later starts and other processes load the same ones.
 */
export async function createEmbeddedIdentity(
  options: EmbeddedIdentityOptions,
): Promise<EmbeddedIdentity> {
  const { config, logger, mailer } = options;
  const db = options.database.db;
  const clock = options.clock ?? systemClock;
  const pool = await bootstrapPool(db, clock, config.COGNITO_REGION);
  const keys = await loadSigningKeys(db, clock);
  const issuer = `${config.publicUrl}/idp/${pool.userPoolId}`;
  const passwordPolicy = { ...DEFAULT_PASSWORD_POLICY, ...options.passwordPolicy };
  const passwords = createPasswordHasher(
    options.passwordHashCost ?? {
      memoryKib: config.IDP_PASSWORD_HASH_MEMORY_KIB,
      passes: config.IDP_PASSWORD_HASH_PASSES,
    },
  );

  // Work started after answering (code e-mails); close() waits for it.
  const pending = new Set<Promise<void>>();
  const idpLogger = logger.child({ component: 'idp' });
  const afterAnswer = (task: () => Promise<void>, failureMessage: string) => {
    const run = new Promise<void>((resolve) => setImmediate(resolve))
      .then(task)
      .catch((error: unknown) => idpLogger.error({ err: error }, failureMessage))
      .finally(() => pending.delete(run));
    pending.add(run);
  };

  const ctx: ServiceContext = {
    db,
    clock,
    logger: idpLogger,
    mailer,
    pool: {
      region: config.COGNITO_REGION,
      userPoolId: pool.userPoolId,
      webClientId: pool.webClientId,
      issuer,
    },
    keys,
    verifyToken: createAccessTokenVerifier({
      issuer,
      keys: keys.resolve,
      clientIds: 'any',
      now: () => clock.now().getTime(),
    }),
    passwords,
    passwordPolicy,
    limiter: createLimiter(db, clock, resolveLimits(options.limits)),
    afterAnswer,
    lifetimes: {
      accessTokenSeconds: config.IDP_ACCESS_TOKEN_TTL_SECONDS,
      refreshTokenSeconds: config.IDP_REFRESH_TOKEN_TTL_SECONDS,
      signUpCodeSeconds: 24 * 3600,
      resetCodeSeconds: 3600,
    },
  };

  const verifyForApi = createAccessTokenVerifier({
    issuer,
    keys: keys.resolve,
    clientIds: [pool.webClientId],
    now: () => clock.now().getTime(),
  });
  const verifyAccessToken = async (token: string) => {
    const claims = await verifyForApi(token);
    if (!(await isSessionActive(db, claims.originJti))) {
      throw new InvalidTokenError('revoked', 'The session has been signed out.');
    }
    return claims;
  };

  const sweep = async () => {
    await sweepCodes(ctx);
    await sweepSessions(ctx);
    await ctx.limiter.sweep();
  };
  const timer = setInterval(() => {
    sweep().catch((error: unknown) => ctx.logger.warn({ err: error }, 'identity sweep failed'));
  }, SWEEP_INTERVAL_MS);
  timer.unref();

  ctx.logger.info(
    { userPoolId: pool.userPoolId, clientId: pool.webClientId },
    'embedded identity service ready',
  );

  return {
    kind: 'embedded',
    userPoolId: pool.userPoolId,
    clientId: pool.webClientId,
    issuer,
    publicSettings: (origin) => ({
      endpoint: `${origin}/idp`,
      region: config.COGNITO_REGION,
      userPoolId: pool.userPoolId,
      clientId: pool.webClientId,
    }),
    // The endpoint is PUBLIC_URL's (never the request's Host), so a browser that reached us by
    // another name (localhost for 127.0.0.1) must be allowed to call it.
    connectOrigins: () => [new URL(config.publicUrl).origin],
    verifyAccessToken,
    // verifyAccessToken already looked the session up, on every request.
    async verifySession() {},
    async fetchProfile(accessToken): Promise<IdentityProfile> {
      const claims = await verifyAccessToken(accessToken);
      const user = await findUserBySub(db, claims.sub);
      if (!user) throw new InvalidTokenError('revoked', 'The account no longer exists.');
      return {
        sub: user.sub,
        email: user.email,
        emailVerified: user.emailVerified,
        givenName: user.givenName ?? '',
        familyName: user.familyName ?? '',
      };
    },
    routes: createWireRoutes(ctx, { trustProxy: config.TRUST_PROXY }),
    async close() {
      clearInterval(timer);
      // A mail server that never answers must not hold shutdown for nodemailer's timeouts.
      await Promise.race([
        Promise.allSettled([...pending]),
        new Promise((resolve) => setTimeout(resolve, CLOSE_WAIT_MS).unref()),
      ]);
    },
    admin: {
      async createAppClient({ name, withSecret }) {
        const clientId = createClientId();
        const clientSecret = withSecret ? createClientSecret() : null;
        await db.insert(idpClients).values({ clientId, name, secret: clientSecret });
        return { clientId, clientSecret };
      },
      async createUser({ email, password, givenName, familyName, confirmed = true }) {
        checkPasswordPolicy(password, passwordPolicy);
        const sub = randomUUID();
        const now = clock.now();
        await db.insert(idpUsers).values({
          sub,
          email: normalizeUsername(email),
          passwordHash: await passwords.hash(password),
          status: confirmed ? 'CONFIRMED' : 'UNCONFIRMED',
          emailVerified: confirmed,
          givenName: givenName ?? null,
          familyName: familyName ?? null,
          createdAt: now,
          updatedAt: now,
        });
        return { sub };
      },
      rotateSigningKeys: () => keys.rotate(),
      sweep,
    },
  };
}

/** Creates the pool, its web client and its keys once; a lock keeps concurrent first starts apart. */
async function bootstrapPool(db: Database, clock: Clock, region: string) {
  return db.transaction(async (tx) => {
    const database = tx as unknown as Database;
    await database.execute(sql`select pg_advisory_xact_lock(${ADVISORY_LOCKS.identityBootstrap})`);
    let [pool] = await database.select().from(idpPool).where(eq(idpPool.id, 1));
    if (!pool) {
      const webClientId = createClientId();
      await database
        .insert(idpClients)
        .values({ clientId: webClientId, name: 'earshot-web', secret: null });
      [pool] = await database
        .insert(idpPool)
        .values({ id: 1, userPoolId: createUserPoolId(region), webClientId })
        .returning();
    }
    await ensureSigningKeys(database, clock);
    if (!pool) throw new Error('The identity pool could not be created.');
    return pool;
  });
}
