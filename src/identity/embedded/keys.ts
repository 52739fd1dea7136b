import { createPrivateKey, type JsonWebKey, type KeyObject } from 'node:crypto';
import { desc, isNull } from 'drizzle-orm';
import {
  calculateJwkThumbprint,
  createLocalJWKSet,
  exportJWK,
  generateKeyPair,
  type JSONWebKeySet,
  type JWK,
  type JWTVerifyGetKey,
} from 'jose';
import type { Database } from '../../db/client.ts';
import { IDP_TOKEN_USES, type IdpTokenUse, idpSigningKeys } from '../../db/schema/identity.ts';
import type { Clock } from '../../platform/clock.ts';

/**
 * The service's RS256 keys, kept in the database so every process and every restart signs with
 * the same ones. As in Cognito, access and ID tokens are signed by different keys, each with its
 * own `kid` (the RFC 7638 thumbprint). Rotation adds new keys and retires the old ones from
 * signing; retired keys stay published until deleted, so tokens already issued still verify.
 */
export type SigningKeys = {
  /** The key that signs new tokens of this use. */
  signingKey(use: IdpTokenUse): { kid: string; key: KeyObject };
  /** The public keys, as published at /idp/<poolId>/.well-known/jwks.json. */
  jwks(): JSONWebKeySet;
  /** Key resolver for jose's jwtVerify; reloads from the database when it meets an unknown kid. */
  resolve: JWTVerifyGetKey;
  /** Creates new signing keys for both uses and retires the previous ones from signing. */
  rotate(): Promise<void>;
};

type LoadedKeys = {
  signing: Map<IdpTokenUse, { kid: string; key: KeyObject }>;
  jwks: JSONWebKeySet;
  resolver: ReturnType<typeof createLocalJWKSet>;
};

// Another process may have rotated; look again at most this often when a kid is unknown.
const RELOAD_INTERVAL_MS = 1000;

export async function loadSigningKeys(db: Database, clock: Clock): Promise<SigningKeys> {
  let loaded = await readKeys(db);
  let lastReload = Date.now();

  const reload = async () => {
    loaded = await readKeys(db);
    lastReload = Date.now();
  };

  return {
    signingKey(use) {
      const key = loaded.signing.get(use);
      if (!key) throw new Error(`No signing key for ${use} tokens; run the identity bootstrap.`);
      return key;
    },
    jwks: () => structuredClone(loaded.jwks),
    async resolve(header, token) {
      const known = loaded.jwks.keys.some((key) => key.kid === header.kid);
      if (!known && Date.now() - lastReload > RELOAD_INTERVAL_MS) await reload();
      return loaded.resolver(header, token);
    },
    async rotate() {
      await db.transaction(async (tx) => {
        await tx
          .update(idpSigningKeys)
          .set({ retiredAt: clock.now() })
          .where(isNull(idpSigningKeys.retiredAt));
        for (const use of IDP_TOKEN_USES) await insertKey(tx as unknown as Database, use, clock);
      });
      await reload();
    },
  };
}

/** Creates a signing key for each use that has none. Runs inside the bootstrap's locked transaction. */
export async function ensureSigningKeys(db: Database, clock: Clock): Promise<void> {
  const active = await db
    .select({ tokenUse: idpSigningKeys.tokenUse })
    .from(idpSigningKeys)
    .where(isNull(idpSigningKeys.retiredAt));
  for (const use of IDP_TOKEN_USES) {
    if (!active.some((row) => row.tokenUse === use)) await insertKey(db, use, clock);
  }
}

async function insertKey(db: Database, use: IdpTokenUse, clock: Clock): Promise<void> {
  const { publicKey, privateKey } = await generateKeyPair('RS256', {
    modulusLength: 2048,
    extractable: true,
  });
  const publicJwk = await exportJWK(publicKey);
  const privateJwk = await exportJWK(privateKey);
  const kid = await calculateJwkThumbprint(publicJwk);
  await db.insert(idpSigningKeys).values({
    kid,
    tokenUse: use,
    publicJwk: asStrings({ ...publicJwk, kid, alg: 'RS256', use: 'sig' }),
    privateJwk: asStrings({ ...privateJwk, kid, alg: 'RS256' }),
    createdAt: clock.now(),
  });
}

async function readKeys(db: Database): Promise<LoadedKeys> {
  const rows = await db.select().from(idpSigningKeys).orderBy(desc(idpSigningKeys.createdAt));
  const signing = new Map<IdpTokenUse, { kid: string; key: KeyObject }>();
  for (const row of rows) {
    if (row.retiredAt || signing.has(row.tokenUse)) continue;
    const key = createPrivateKey({ key: row.privateJwk as JsonWebKey, format: 'jwk' });
    signing.set(row.tokenUse, { kid: row.kid, key });
  }
  const jwks: JSONWebKeySet = {
    keys: rows.map((row) => {
      const { kty, e, n } = row.publicJwk;
      return { alg: 'RS256', e, kid: row.kid, kty, n, use: 'sig' } as JWK;
    }),
  };
  return { signing, jwks, resolver: createLocalJWKSet(jwks) };
}

function asStrings(jwk: JWK): Record<string, string> {
  return Object.fromEntries(
    Object.entries(jwk).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
}
