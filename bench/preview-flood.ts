/**
 * The attackers of bench/preview-load.bench.ts, in a worker thread so their HTTP work does not
 * share the server's event loop: each of `concurrency` clients (spread over the accounts) posts
 * a preview, waits for the answer and posts the next, on a keep-alive connection of its own,
 * until the parent posts 'stop'. Answers are counted by status (200 split into exact and
 * estimated); the latencies of the 200s are kept.
 */
import { Agent, request as httpRequest } from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';

export type FloodRequest = {
  baseUrl: string;
  accounts: { token: string; body: string }[];
  concurrency: number;
};

export type FloodResult = {
  statuses: Record<string, number>;
  /** Milliseconds, of the previews answered 200. */
  latencies: number[];
  seconds: number;
};

async function run(request: FloodRequest): Promise<FloodResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: request.concurrency });
  const statuses: Record<string, number> = {};
  const latencies: number[] = [];
  let stopped = false;
  parentPort?.on('message', (message) => {
    if (message === 'stop') stopped = true;
  });
  const started = performance.now();
  await Promise.all(
    Array.from({ length: request.concurrency }, async (_, client) => {
      const account = request.accounts[client % request.accounts.length];
      if (!account) return;
      while (!stopped) {
        const begin = performance.now();
        const { status, text } = await post(agent, request.baseUrl, account);
        const key =
          status === 200
            ? text.includes('"estimated":true')
              ? '200 estimated'
              : '200 exact'
            : String(status);
        statuses[key] = (statuses[key] ?? 0) + 1;
        if (status === 200) latencies.push(performance.now() - begin);
        // A refusal comes back at once; an attacker retries at once too, but yields to the
        // loop so the stop message is heard.
        if (status !== 200) await new Promise((resolve) => setImmediate(resolve));
      }
    }),
  );
  agent.destroy();
  return { statuses, latencies, seconds: (performance.now() - started) / 1000 };
}

function post(
  agent: Agent,
  baseUrl: string,
  account: { token: string; body: string },
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const headers = { Authorization: account.token, 'Content-Type': 'application/json' };
    const req = httpRequest(
      `${baseUrl}/api/monitors/preview`,
      { agent, method: 'POST', headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(account.body);
  });
}

run(workerData as FloodRequest).then(
  (result) => parentPort?.postMessage(result),
  (error: unknown) => parentPort?.postMessage({ error: String(error) }),
);
