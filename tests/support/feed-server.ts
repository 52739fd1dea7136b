import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

const RECORDED = path.join(import.meta.dirname, '..', 'fixtures', 'recorded');

type Answer = {
  readonly status?: number;
  readonly type?: string;
  readonly body?: string | Buffer;
  readonly headers?: Record<string, string>;
};

/**
 * A real HTTP server for feed tests: `/recorded/<file>` serves a file of tests/fixtures/recorded
 * as it is, with an ETag and 304 for a matching If-None-Match; other paths answer what the test
 * put there with `set`. It counts the requests of each path.
 */
export async function startFeedServer(host = '127.0.0.1') {
  const routes = new Map<string, Answer | ((request: IncomingMessage) => Answer)>();
  const hits = new Map<string, number>();
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const pathname = new URL(request.url ?? '/', 'http://x').pathname;
    hits.set(pathname, (hits.get(pathname) ?? 0) + 1);
    const route = routes.get(pathname);
    let answer: Answer | undefined = typeof route === 'function' ? route(request) : route;
    if (!answer && pathname.startsWith('/recorded/')) {
      const file = path.basename(pathname);
      try {
        const body = readFileSync(path.join(RECORDED, file));
        answer = {
          type: file.endsWith('.json') ? 'application/json' : 'application/xml',
          body,
        };
      } catch {
        answer = undefined;
      }
    }
    if (!answer) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
      return;
    }
    const body = answer.body ?? '';
    const etag = `"${createHash('sha1').update(body).digest('hex')}"`;
    if ((answer.status ?? 200) === 200 && request.headers['if-none-match'] === etag) {
      response.writeHead(304, { etag }).end();
      return;
    }
    response
      .writeHead(answer.status ?? 200, {
        'content-type': answer.type ?? 'text/plain',
        etag,
        ...answer.headers,
      })
      .end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://${host}:${port}`;
  return {
    origin,
    url: (pathname: string) => `${origin}${pathname}`,
    set(pathname: string, answer: Answer | ((request: IncomingMessage) => Answer)) {
      routes.set(pathname, answer);
    },
    hits: (pathname: string) => hits.get(pathname) ?? 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
export type FeedServer = Awaited<ReturnType<typeof startFeedServer>>;
