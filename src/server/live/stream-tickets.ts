import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Tickets that open the live feed (`GET /api/events?ticket=…`) without putting the access token
 * in a URL, where proxies' logs, analytics and session recordings could keep it. EventSource
 * cannot send headers, so the web app first asks `POST /api/events/ticket` (access token in
 * `Authorization`) and opens the stream with the ticket.
 *
 * A ticket is the access token sealed with AES-256-GCM under a key derived from a server secret
 * every web process reads from the database, with its expiry: any process can open it, it reveals
 * nothing, it cannot be altered, it serves for nothing but the stream (its own key and label), and
 * it lives `ttlMs` (30 s). Each process takes a ticket once; the token inside is then verified
 * as any access token is, so a signed-out session gets no stream.
 */

export type StreamTicket = { ticket: string; expiresAt: Date };

export type StreamTickets = {
  issue(accessToken: string): StreamTicket;
  /** The access token of a genuine, unexpired ticket not taken before; null for anything else. */
  redeem(ticket: string): string | null;
};

const LABEL = 'earshot:events-ticket:v1';
const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;
export const STREAM_TICKET_TTL_MS = 30_000;

export function createStreamTickets(
  secret: string,
  options: { ttlMs?: number; now?: () => number } = {},
): StreamTickets {
  const ttlMs = options.ttlMs ?? STREAM_TICKET_TTL_MS;
  const now = options.now ?? Date.now;
  const key = Buffer.from(hkdfSync('sha256', secret, '', LABEL, 32));
  const aad = Buffer.from(LABEL);
  /** Digests of tickets taken, with their expiry; forgotten once expired. */
  const taken = new Map<string, number>();

  const forgetExpired = (at: number) => {
    for (const [digest, expiresAt] of taken) if (expiresAt <= at) taken.delete(digest);
  };

  return {
    issue(accessToken) {
      const expiresAt = now() + ttlMs;
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(aad);
      const sealed = Buffer.concat([
        cipher.update(`${expiresAt}.${accessToken}`, 'utf8'),
        cipher.final(),
      ]);
      const ticket = Buffer.concat([Buffer.of(VERSION), iv, cipher.getAuthTag(), sealed]).toString(
        'base64url',
      );
      return { ticket, expiresAt: new Date(expiresAt) };
    },
    redeem(ticket) {
      if (!/^[A-Za-z0-9_-]{40,8192}$/.test(ticket)) return null;
      const bytes = Buffer.from(ticket, 'base64url');
      if (bytes[0] !== VERSION || bytes.length <= 1 + IV_BYTES + TAG_BYTES) return null;
      let plain: string;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(1, 1 + IV_BYTES));
        decipher.setAAD(aad);
        decipher.setAuthTag(bytes.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES));
        plain = Buffer.concat([
          decipher.update(bytes.subarray(1 + IV_BYTES + TAG_BYTES)),
          decipher.final(),
        ]).toString('utf8');
      } catch {
        return null;
      }
      const dot = plain.indexOf('.');
      const expiresAt = Number(plain.slice(0, dot));
      const at = now();
      if (dot < 0 || !Number.isFinite(expiresAt) || expiresAt <= at) return null;
      const digest = createHash('sha256').update(bytes).digest('base64url');
      if (taken.has(digest)) return null;
      if (taken.size >= 1000) forgetExpired(at);
      taken.set(digest, expiresAt);
      return plain.slice(dot + 1);
    },
  };
}
