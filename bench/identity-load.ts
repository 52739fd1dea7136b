/**
 * The load generator of bench/identity.bench.ts, run in a worker thread so the simulated users'
 * HTTP client does not share the server's event loop (browsers would not). Each of
 * `concurrency` workers sends one request, waits for the answer, and sends the next, on a
 * keep-alive connection of its own. node:http rather than fetch: it costs the shared CPU less.
 */
import { Agent, request as httpRequest } from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';

export type LoadRequest = {
  endpoint: string;
  clientId: string;
  flow: 'sign-in' | 'refresh';
  /** Per simulated user: an e-mail address (sign-in) or a refresh token (refresh). */
  credentials: string[];
  password: string;
  concurrency: number;
  total: number;
};

/**
 * `clientCpuMs`: CPU time of this thread (the simulated users) while the scenario ran;
 * `threadCpuMs`: all of this thread's CPU time, its start-up included.
 */
export type LoadResult = {
  latencies: number[];
  seconds: number;
  clientCpuMs: number;
  threadCpuMs: number;
};

async function run(request: LoadRequest): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: request.concurrency });
  const latencies: number[] = [];
  let sent = 0;
  const started = performance.now();
  const cpuBefore = process.threadCpuUsage();
  await Promise.all(
    Array.from({ length: request.concurrency }, async (_, worker) => {
      const credential = request.credentials[worker % request.credentials.length] ?? '';
      const body = JSON.stringify({
        AuthFlow: request.flow === 'sign-in' ? 'USER_PASSWORD_AUTH' : 'REFRESH_TOKEN_AUTH',
        ClientId: request.clientId,
        AuthParameters:
          request.flow === 'sign-in'
            ? { USERNAME: credential, PASSWORD: request.password }
            : { REFRESH_TOKEN: credential },
      });
      while (sent < request.total) {
        sent++;
        const begin = performance.now();
        const { status, text } = await post(agent, request.endpoint, body);
        latencies.push(performance.now() - begin);
        if (status !== 200) throw new Error(`${request.flow} failed: ${text}`);
      }
    }),
  );
  agent.destroy();
  const cpu = process.threadCpuUsage(cpuBefore);
  const thread = process.threadCpuUsage();
  return {
    latencies,
    seconds: (performance.now() - started) / 1000,
    clientCpuMs: (cpu.user + cpu.system) / 1000,
    threadCpuMs: (thread.user + thread.system) / 1000,
  };
}

function post(
  agent: Agent,
  endpoint: string,
  body: string,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      endpoint,
      {
        method: 'POST',
        agent,
        headers: {
          'Content-Type': 'application/x-amz-json-1.1',
          'X-Amz-Target': 'AWSCognitoIdentityProviderService.InitiateAuth',
          'Content-Length': Buffer.byteLength(body),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        response.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

if (parentPort) {
  const port = parentPort;
  run(workerData as LoadRequest).then(
    (result) => port.postMessage(result),
    (error: unknown) => port.postMessage({ error: String(error) }),
  );
}
