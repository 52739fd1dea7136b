/**
 * The load generator of bench/matches-api.bench.ts, in a worker thread so the clients' HTTP
 * work does not share the server's event loop. Each of `concurrency` clients sends a GET with
 * its own access token, waits for the answer and sends the next, on a keep-alive connection of
 * its own, cycling through its paths, until `total` requests are answered.
 */
import { Agent, request as httpRequest } from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';

export type GetLoadRequest = {
  baseUrl: string;
  /**
   * Per client: its access token and the requests it sends, in turn (a body makes a POST; a
   * request's own token, when given, is sent instead of the client's).
   */
  clients: { token: string; requests: { path: string; body?: string; token?: string }[] }[];
  concurrency: number;
  total: number;
};

export type GetLoadResult = { latencies: number[]; seconds: number };

async function run(request: GetLoadRequest): Promise<GetLoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: request.concurrency });
  const latencies: number[] = [];
  let sent = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: request.concurrency }, async (_, worker) => {
      const client = request.clients[worker % request.clients.length];
      if (!client) return;
      let turn = 0;
      while (sent < request.total) {
        sent++;
        const next = client.requests[turn++ % client.requests.length] ?? { path: '/' };
        const begin = performance.now();
        const { status, text } = await send(
          agent,
          request.baseUrl,
          next.token ?? client.token,
          next,
        );
        latencies.push(performance.now() - begin);
        if (status !== 200) {
          throw new Error(`${next.path} answered ${status}: ${text.slice(0, 200)}`);
        }
      }
    }),
  );
  agent.destroy();
  return { latencies, seconds: (performance.now() - started) / 1000 };
}

function send(
  agent: Agent,
  baseUrl: string,
  token: string,
  next: { path: string; body?: string },
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { Authorization: token };
    if (next.body) headers['Content-Type'] = 'application/json';
    const method = next.body ? 'POST' : 'GET';
    const req = httpRequest(baseUrl + next.path, { agent, method, headers }, (res) => {
      // The body is read to its end, but decoded only to report a failure: the clients share
      // the machine's two cores with the server, and their own work should take as little of
      // them as it can.
      const status = res.statusCode ?? 0;
      const chunks: Buffer[] = [];
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (status !== 200) chunks.push(chunk);
      });
      res.on('end', () =>
        resolve({
          status: bytes === 0 ? 0 : status,
          text: status === 200 ? '' : Buffer.concat(chunks).toString('utf8'),
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(next.body);
  });
}

run(workerData as GetLoadRequest).then(
  (result) => parentPort?.postMessage(result),
  (error: unknown) => parentPort?.postMessage({ error: String(error) }),
);
