import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

export type RecordedRequest = {
  method: string;
  path: string;
  query: URLSearchParams;
  body: string;
};

/**
 * A real HTTP server on loopback that answers 200 `{}` to everything (with CORS) and keeps what it
 * was sent, gzip bodies decoded: a stand-in host for a third party such as PostHog.
 */
export async function startRequestRecorder() {
  const requests: RecordedRequest[] = [];
  const server = createServer(async (req, res) => {
    const raw = await readBody(req);
    const url = new URL(req.url ?? '/', 'http://recorder');
    requests.push({
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      body: decode(raw, url),
    });
    res.writeHead(200, {
      'Content-Type': 'application/json',
      'Access-Control-Allow-Origin': req.headers.origin ?? '*',
      'Access-Control-Allow-Credentials': 'true',
      'Access-Control-Allow-Headers': req.headers['access-control-request-headers'] ?? '*',
      'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
    });
    res.end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function decode(raw: Buffer, url: URL): string {
  if (raw.length === 0) return '';
  if (raw[0] === 0x1f && raw[1] === 0x8b) return gunzipSync(raw).toString('utf8');
  const text = raw.toString('utf8');
  if (url.searchParams.get('compression') === 'base64' || text.startsWith('data=')) {
    const data = new URLSearchParams(text).get('data') ?? text;
    try {
      return Buffer.from(data, 'base64').toString('utf8');
    } catch {
      return text;
    }
  }
  return text;
}
