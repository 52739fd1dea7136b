import { randomUUID } from 'node:crypto';
import { and, eq, isNull, lt, ne, or, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { queryRows } from '../../db/prepared.ts';
import { idpSessions, idpUsers } from '../../db/schema/identity.ts';
import type { Clock } from '../../platform/clock.ts';
import { type AccessTokenClaims, InvalidTokenError } from '../port.ts';
import type { ServiceContext } from './context.ts';
import { errors } from './errors.ts';
import { createRefreshToken, sha256 } from './secrets.ts';
import { findUserBySub, type IdpClient, type IdpUser } from './store.ts';
import { signAccessToken, signIdToken, type TokenSession, type TokenSubject } from './tokens.ts';

/**
 * Sign-in sessions. A password sign-in starts one: an opaque refresh token (only its SHA-256 is
 * stored) plus access and ID tokens carrying the session's id as `origin_jti`. Refresh issues new
 * access and ID tokens for the same session; revoking the session (GlobalSignOut, RevokeToken, a
 * password change or reset, DeleteUser) makes the refresh token and every access token of the
 * session unusable at once.
 */

export type AuthenticationResult = {
  AccessToken: string;
  ExpiresIn: number;
  TokenType: 'Bearer';
  RefreshToken?: string;
  IdToken: string;
};

export async function startSession(
  ctx: ServiceContext,
  user: IdpUser,
  client: IdpClient,
): Promise<AuthenticationResult> {
  const refreshToken = createRefreshToken();
  const authTime = nowSeconds(ctx.clock);
  const session: TokenSession = {
    originJti: randomUUID(),
    eventId: randomUUID(),
    clientId: client.clientId,
    authTime,
  };
  await ctx.db.insert(idpSessions).values({
    originJti: session.originJti,
    sub: user.sub,
    clientId: client.clientId,
    refreshTokenHash: sha256(refreshToken),
    eventId: session.eventId,
    authTime: new Date(authTime * 1000),
    expiresAt: new Date(ctx.clock.now().getTime() + ctx.lifetimes.refreshTokenSeconds * 1000),
  });
  return { ...(await issueTokens(ctx, user, session)), RefreshToken: refreshToken };
}

export type SessionRow = typeof idpSessions.$inferSelect;

/** What a refresh needs: the session's state and the token subject (no password hash). */
export type RefreshSession = {
  session: Pick<
    SessionRow,
    'originJti' | 'clientId' | 'eventId' | 'authTime' | 'expiresAt' | 'revokedAt'
  >;
  user: TokenSubject;
};

/**
 * The session of a refresh token with its user (one query: refresh is the hot path), or
 * NotAuthorizedException as Cognito words it.
 */
export async function findRefreshSession(
  ctx: ServiceContext,
  refreshToken: string,
): Promise<RefreshSession> {
  const [row] = await statements(ctx.db).refreshSession.execute({ hash: sha256(refreshToken) });
  if (!row) throw errors.invalidRefreshToken();
  return row;
}

export async function refreshSession(
  ctx: ServiceContext,
  { session, user }: RefreshSession,
): Promise<AuthenticationResult> {
  if (session.revokedAt) throw errors.refreshTokenRevoked();
  if (session.expiresAt.getTime() <= ctx.clock.now().getTime()) throw errors.refreshTokenExpired();
  return issueTokens(ctx, user, {
    originJti: session.originJti,
    eventId: session.eventId,
    clientId: session.clientId,
    authTime: Math.floor(session.authTime.getTime() / 1000),
  });
}

async function issueTokens(ctx: ServiceContext, subject: TokenSubject, session: TokenSession) {
  const options = {
    keys: ctx.keys,
    issuer: ctx.pool.issuer,
    now: nowSeconds(ctx.clock),
    lifetimeSeconds: ctx.lifetimes.accessTokenSeconds,
  };
  const [AccessToken, IdToken] = await Promise.all([
    signAccessToken(subject, session, options),
    signIdToken(subject, session, options),
  ]);
  return {
    AccessToken,
    ExpiresIn: ctx.lifetimes.accessTokenSeconds,
    TokenType: 'Bearer' as const,
    IdToken,
  };
}

/** False for a revoked session and for one that no longer exists (user deleted, swept). */
export async function isSessionActive(
  db: Database,
  originJti: string | undefined,
): Promise<boolean> {
  if (!originJti || !UUID.test(originJti)) return false;
  const [session] = await queryRows<{ active: boolean }>(db, SESSION_STATE, [originJti]);
  return session?.active === true;
}

// On every API request in embedded mode: planned once (queryRows), on PGlite too.
const SESSION_STATE = {
  name: 'idp_session_state',
  text: 'select revoked_at is null as active from idp_sessions where origin_jti = $1',
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// The query on the refresh path, prepared once per database.
const prepared = new WeakMap<Database, ReturnType<typeof prepareStatements>>();

function statements(db: Database) {
  const existing = prepared.get(db);
  if (existing) return existing;
  const created = prepareStatements(db);
  prepared.set(db, created);
  return created;
}

function prepareStatements(db: Database) {
  return {
    refreshSession: db
      .select({
        session: {
          originJti: idpSessions.originJti,
          clientId: idpSessions.clientId,
          eventId: idpSessions.eventId,
          authTime: idpSessions.authTime,
          expiresAt: idpSessions.expiresAt,
          revokedAt: idpSessions.revokedAt,
        },
        user: {
          sub: idpUsers.sub,
          email: idpUsers.email,
          emailVerified: idpUsers.emailVerified,
          givenName: idpUsers.givenName,
          familyName: idpUsers.familyName,
        },
      })
      .from(idpSessions)
      .innerJoin(idpUsers, eq(idpUsers.sub, idpSessions.sub))
      .where(eq(idpSessions.refreshTokenHash, sql.placeholder('hash')))
      .prepare('idp_refresh_session'),
  };
}

/**
 * The user behind an access token, for the operations that take one (GetUser, ChangePassword…),
 * with Cognito's messages: "Invalid Access Token", "Access Token has expired", "Access Token
 * has been revoked".
 */
export async function authenticate(
  ctx: ServiceContext,
  accessToken: string,
): Promise<{ user: IdpUser; claims: AccessTokenClaims }> {
  let claims: AccessTokenClaims;
  try {
    claims = await ctx.verifyToken(accessToken);
  } catch (error) {
    if (error instanceof InvalidTokenError) {
      throw error.reason === 'expired' ? errors.accessTokenExpired() : errors.invalidAccessToken();
    }
    throw error;
  }
  if (!(await isSessionActive(ctx.db, claims.originJti))) throw errors.accessTokenRevoked();
  const user = await findUserBySub(ctx.db, claims.sub);
  if (!user) throw errors.userNotFound();
  return { user, claims };
}

/** Revokes every session of the user, except `keep` (the session that changed the password). */
export async function revokeUserSessions(
  ctx: ServiceContext,
  sub: string,
  keep?: string,
): Promise<void> {
  const conditions = [eq(idpSessions.sub, sub), isNull(idpSessions.revokedAt)];
  if (keep) conditions.push(ne(idpSessions.originJti, keep));
  await ctx.db
    .update(idpSessions)
    .set({ revokedAt: ctx.clock.now() })
    .where(and(...conditions));
}

export async function revokeSession(ctx: ServiceContext, originJti: string): Promise<void> {
  await ctx.db
    .update(idpSessions)
    .set({ revokedAt: ctx.clock.now() })
    .where(and(eq(idpSessions.originJti, originJti), isNull(idpSessions.revokedAt)));
}

/**
 * Deletes sessions nobody can use any more: past their refresh expiry by more than an access
 * token's lifetime (so no access token of theirs is still within `exp`).
 */
export async function sweepSessions(
  ctx: Pick<ServiceContext, 'db' | 'clock' | 'lifetimes'>,
): Promise<void> {
  const cutoff = new Date(
    ctx.clock.now().getTime() - ctx.lifetimes.accessTokenSeconds * 1000 - 60_000,
  );
  await ctx.db
    .delete(idpSessions)
    .where(or(lt(idpSessions.expiresAt, cutoff), lt(idpSessions.revokedAt, cutoff)));
}

/** Token timestamps (`iat`, `auth_time`) are whole seconds since the epoch. */
function nowSeconds(clock: Clock): number {
  return Math.floor(clock.now().getTime() / 1000);
}
