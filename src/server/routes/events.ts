import { createRoute, z } from '@hono/zod-openapi';
import { streamSSE } from 'hono/streaming';
import { RateLimitedError } from '../../core/errors.ts';
import type { LiveMatches } from '../../matches/live-matches.ts';
import { matchSchema } from '../../shared/match.ts';
import { createApiRouter, errorResponses, signedIn } from '../http/api-router.ts';

/** Path of the live feed; the one API path that also takes the access token as `?token=`. */
export const EVENTS_PATH = '/api/events';

const eventsRoute = createRoute({
  method: 'get',
  path: '/events',
  tags: ['matches'],
  summary: 'Server-sent events: a `match` event for each new match of the signed-in user',
  description: [
    'EventSource cannot set headers, so the access token may come as `?token=` (it is never logged).',
    'Events: `ready` (data `{ expiresAt }`) once connected; `match` (data: a Match, id: its id) for',
    'each new match within a second of its commit; `expired` just before the stream ends at the',
    'token’s expiry, when the client reconnects with a fresh token. A comment line every 15 s',
    'keeps proxies from closing the connection.',
  ].join(' '),
  security: signedIn,
  request: {
    query: z.object({
      token: z
        .string()
        .optional()
        .openapi({ description: 'The access token, if not in Authorization' }),
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
  heartbeatMs?: number;
};

/**
 * Live streams one user may hold open in this process: a tab each, and then some. Each holds a
 * connection and a subscription; without a cap one account could hold them by the thousand.
 */
export const MAX_STREAMS_PER_USER = 10;

export function createEventRoutes(options: EventRoutesOptions) {
  const heartbeatMs = options.heartbeatMs ?? 15_000;
  const app = createApiRouter();
  const open = new Map<string, number>();
  app.openapi(eventsRoute, (c) => {
    const { claims } = c.get('auth');
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
          () => {
            send(() => stream.writeSSE({ event: 'expired', data: '{}' }));
            send(async () => finish());
          },
          Math.max(0, claims.expiresAt * 1000 - Date.now()),
        );
        await finished;
        stop();
        clearInterval(heartbeat);
        clearTimeout(expiry);
        await writes;
      } finally {
        release();
      }
    });
  });
  return app;
}
