import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { idpClients, idpUsers } from '../../db/schema/identity.ts';
import type { Clock } from '../../platform/clock.ts';
import { normalizeEmail } from './attributes.ts';
import { errors } from './errors.ts';
import { computeSecretHash, equalSecrets } from './secrets.ts';

/** Users and app clients as the operations read them. */

export type IdpUser = typeof idpUsers.$inferSelect;
export type IdpClient = typeof idpClients.$inferSelect;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * User names are e-mail addresses compared as NFKC, then lower case (`zoë` in NFC and in NFD is
 * one name); the internal name (`sub`) works too.
 */
export function normalizeUsername(username: string): string {
  return normalizeEmail(username);
}

export async function findUserByUsername(
  db: Database,
  username: string,
): Promise<IdpUser | undefined> {
  const name = normalizeUsername(username);
  const where = UUID.test(name) ? eq(idpUsers.sub, name) : eq(idpUsers.email, name);
  const [user] = await db.select().from(idpUsers).where(where);
  return user;
}

export async function findUserBySub(db: Database, sub: string): Promise<IdpUser | undefined> {
  if (!UUID.test(sub)) return undefined;
  const [user] = await db.select().from(idpUsers).where(eq(idpUsers.sub, sub));
  return user;
}

/** Updates a user's row (and `updated_at`, from the service's clock). */
export async function updateUser(
  ctx: { db: Database; clock: Clock },
  sub: string,
  changes: Partial<
    Pick<
      IdpUser,
      | 'email'
      | 'pendingEmail'
      | 'passwordHash'
      | 'status'
      | 'emailVerified'
      | 'givenName'
      | 'familyName'
    >
  >,
): Promise<void> {
  await ctx.db
    .update(idpUsers)
    .set({ ...changes, updatedAt: ctx.clock.now() })
    .where(eq(idpUsers.sub, sub));
}

// App clients are created and never changed or deleted by the service, and every operation
// looks one up: keep them in memory for a while (per database, as tests run several services).
const CLIENT_CACHE_MS = 60_000;
const clientCaches = new WeakMap<Database, Map<string, { client: IdpClient; until: number }>>();

/** The app client, or ResourceNotFoundException as Cognito answers for an unknown ClientId. */
export async function requireClient(db: Database, clientId: string): Promise<IdpClient> {
  const cache = clientCaches.get(db) ?? new Map();
  clientCaches.set(db, cache);
  const cached = cache.get(clientId);
  if (cached && cached.until > Date.now()) return cached.client;
  const [client] = await db.select().from(idpClients).where(eq(idpClients.clientId, clientId));
  if (!client) throw errors.unknownClient(clientId);
  if (cache.size > 1000) cache.clear();
  cache.set(clientId, { client, until: Date.now() + CLIENT_CACHE_MS });
  return client;
}

/**
 * The first steps of every operation that names a user: the app client (or
 * ResourceNotFoundException), the SecretHash over the name as typed, and the user if there is
 * one. `email` is what codes, per-user limits and decoys are keyed by: the user's address, or
 * the name typed, lower-cased, when there is no such user.
 */
export async function identifyCaller(
  db: Database,
  input: { ClientId: string; Username: string; SecretHash?: string | undefined },
): Promise<{ client: IdpClient; user: IdpUser | undefined; email: string }> {
  const client = await requireClient(db, input.ClientId);
  checkSecretHash(client, input.Username, input.SecretHash);
  const user = await findUserByUsername(db, input.Username);
  return { client, user, email: user?.email ?? normalizeUsername(input.Username) };
}

/**
 * For a client with a secret, `SecretHash` must be HMAC-SHA256(secret, username + clientId).
 * `username` is what the caller typed (or the internal name for refresh, as Cognito requires).
 */
export function checkSecretHash(
  client: IdpClient,
  username: string,
  secretHash: string | undefined,
  onMismatch = errors.secretHashMismatch,
): void {
  if (!client.secret) return;
  if (!secretHash) throw errors.secretNotReceived(client.clientId);
  const expected = computeSecretHash(client.secret, username, client.clientId);
  if (!equalSecrets(expected, secretHash)) throw onMismatch(client.clientId);
}

/** `alice@example.com` → `a***@e***`, as Cognito masks CodeDeliveryDetails.Destination. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  return `${email[0] ?? ''}***@${email[at + 1] ?? ''}***`;
}

export function codeDeliveryDetails(email: string) {
  return { Destination: maskEmail(email), DeliveryMedium: 'EMAIL', AttributeName: 'email' };
}
