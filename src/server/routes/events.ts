import { createRoute, z } from '@hono/zod-openapi';
import { streamSSE } from 'hono/streaming';
import { RateLimitedError } from '../../core/errors.ts';
import { type IdentityProvider, InvalidTokenError } from '../../identity/port.ts';
import type { LiveMatches } from '../../matches/live-matches.ts';
import type { Logger } from '../../platform/logger.ts';
import { eventsTicketSchema } from '../../shared/live-events.ts';
import { matchSchema } from '../../shared/match.ts';
import { createApiRouter, errorResponses, jsonContent, signedInOnly } from '../http/api-router.ts';
import { createPerUserLimit } from '../http/per-user-limit.ts';
import type { StreamTickets } from '../live/stream-tickets.ts';

/** Path of the live feed; the one API path opened with a stream ticket (`?ticket=`). */
export const EVENTS_PATH = '/api/events';

const ticketRoute = createRoute({
  method: 'post',
  path: '/events/ticket',
  tags: ['matches'],
  summary: 'A short-lived ticket that opens the live feed once: GET /api/events?ticket=…',
  description: [
    'EventSource cannot set headers, and an access token must not go in a URL (proxy logs,',
    'analytics, recordings). The ticket is good for one stream of the signed-in user, for 30 s.',
  ].join(' '),
  security: signedInOnly,
  responses: {
    201: { description: 'The ticket', ...jsonContent(eventsTicketSchema) },
    ...errorResponses(401, 429),
  },
});

const eventsRoute = createRoute({
  method: 'get',
  path: '/events',
  tags: ['matches'],
  summary: 'Server-sent events: a `match` event for each new match of the signed-in user',
  description: [
    'Opened with `?ticket=` from POST /api/events/ticket (EventSource cannot set headers), or with',
    'the access token in Authorization. Events: `ready` (data `{ expiresAt }`) once connected;',
    '`match` (data: a Match, id: its id) for each new match within a second of its commit;',
    '`expired` just before the stream ends at the token’s expiry, and `signed-out` when the',
    'session was ended (sign-out everywhere, a password reset), checked every 30 s; the client',
    'then reconnects with a new ticket. A comment line every 15 s keeps proxies from closing it.',
  ].join(' '),
  security: signedInOnly,
  request: {
    query: z.object({
      ticket: z
        .string()
        .optional()
        .openapi({ description: 'A ticket of POST /api/events/ticket, if not Authorization' }),
    }),
  },
  responses: {
    200: {
      description: 'The event stream',
      content: {
        'text/event-stream': {
          schema: z.string().openapi({ description: 'Events; the data of `match` is a Match' }),
        },
      },
    },
    ...errorResponses(401, 429),
  },
});

export type EventRoutesOptions = {
  live: LiveMatches;
  tickets: () => Promise<StreamTickets>;
  identity: IdentityProvider;
  logger: Logger;
  heartbeatMs?: number;
  /** How often an open stream asks whether its session is still live. */
  sessionCheckMs?: number;
};

/**
 * Live streams one user may hold open in this process: a tab each, and then some. Each holds a
 * connection and a subscription; without a cap one account could hold them by the thousand.
 */
export const MAX_STREAMS_PER_USER = 10;
/** Tickets a user may ask for a minute: a reconnect each, with room for many tabs. */
const TICKETS_PER_MINUTE = 60;
/** Every 30 s, plus the provider's 10 s cache of a live session: a revoked stream ends within a minute. */
const SESSION_CHECK_MS = 30_000;

export function createEventRoutes(options: EventRoutesOptions) {
  const heartbeatMs = options.heartbeatMs ?? 15_000;
  const sessionCheckMs = options.sessionCheckMs ?? SESSION_CHECK_MS;
  const app = createApiRouter();
  const open = new Map<string, number>();
  const ticketLimit = createPerUserLimit(TICKETS_PER_MINUTE, 'live-feed connections');

  app.openapi(ticketRoute, async (c) => {
    const { claims, accessToken } = c.get('auth');
    ticketLimit(claims.sub);
    const { ticket, expiresAt } = (await options.tickets()).issue(accessToken);
    c.header('Cache-Control', 'no-store');
    return c.json({ ticket, expiresAt: expiresAt.toISOString() }, 201);
  });

  /** Whether the stream's session still holds: false once the provider says it was ended. */
  const sessionLive = async (accessToken: string): Promise<boolean> => {
    try {
      await options.identity.verifyAccessToken(accessToken);
      await options.identity.verifySession(accessToken);
      return true;
    } catch (error) {
      // Expiry has its own timer and event; a provider that cannot answer keeps the stream.
      if (error instanceof InvalidTokenError) return error.reason === 'expired';
      options.logger.warn({ err: error }, 'live feed: the session could not be checked');
      return true;
    }
  };

  app.openapi(eventsRoute, (c) => {
    const { claims, accessToken } = c.get('auth');
    const streams = open.get(claims.sub) ?? 0;
    if (streams >= MAX_STREAMS_PER_USER) {
      throw new RateLimitedError(
        `Too many live connections (${MAX_STREAMS_PER_USER} at most). Close another tab, or try again in a minute.`,
        60,
      );
    }
    open.set(claims.sub, streams + 1);
    const release = () => {
      const left = (open.get(claims.sub) ?? 1) - 1;
      if (left > 0) open.set(claims.sub, left);
      else open.delete(claims.sub);
    };
    c.header('Cache-Control', 'no-store');
    // Tell nginx-like proxies not to buffer the stream.
    c.header('X-Accel-Buffering', 'no');
    return streamSSE(c, async (stream) => {
      try {
        let finish = () => {};
        const finished = new Promise<void>((resolve) => {
          finish = resolve;
        });
        let writes = Promise.resolve();
        const send = (write: () => Promise<unknown>) => {
          writes = writes.then(write).then(
            () => {},
            () => finish(),
          );
        };
        const end = (event: 'expired' | 'signed-out') => {
          send(() => stream.writeSSE({ event, data: '{}' }));
          send(async () => finish());
        };
        stream.onAbort(() => finish());
        await stream.writeSSE({
          event: 'ready',
          data: JSON.stringify({ expiresAt: new Date(claims.expiresAt * 1000).toISOString() }),
          retry: 3000,
        });
        const stop = options.live.subscribe(claims.sub, (match) => {
          const data = JSON.stringify(matchSchema.parse(match));
          send(() => stream.writeSSE({ event: 'match', id: match.id, data }));
        });
        const heartbeat = setInterval(() => send(() => stream.write(': ping\n\n')), heartbeatMs);
        const expiry = setTimeout(
          () => end('expired'),
          Math.max(0, claims.expiresAt * 1000 - Date.now()),
        );
        // The API checks the session on every request; a stream is one request that lasts, so
        // it asks again now and then, and ends once the session is gone.
        let checking = false;
        const sessionCheck = setInterval(() => {
          if (checking) return;
          checking = true;
          void sessionLive(accessToken).then((live) => {
            checking = false;
            if (!live) end('signed-out');
          });
        }, sessionCheckMs);
        await finished;
        stop();
        clearInterval(heartbeat);
        clearInterval(sessionCheck);
        clearTimeout(expiry);
        await writes;
      } finally {
        release();
      }
    });
  });
  return app;
}
