/**
 * The load generator of bench/identity.bench.ts, run in a worker thread so the simulated users'
 * HTTP client does not share the server's event loop (browsers would not). Each of
 * `concurrency` workers sends one request, waits for the answer, and sends the next.
 */
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

export type LoadResult = { latencies: number[]; seconds: number };

async function run(request: LoadRequest): Promise<LoadResult> {
  const latencies: number[] = [];
  let sent = 0;
  const started = performance.now();
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
        const response = await fetch(request.endpoint, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/x-amz-json-1.1',
            'X-Amz-Target': 'AWSCognitoIdentityProviderService.InitiateAuth',
          },
          body,
        });
        const text = await response.text();
        latencies.push(performance.now() - begin);
        if (response.status !== 200) throw new Error(`${request.flow} failed: ${text}`);
      }
    }),
  );
  return { latencies, seconds: (performance.now() - started) / 1000 };
}

if (parentPort) {
  const port = parentPort;
  run(workerData as LoadRequest).then(
    (result) => port.postMessage(result),
    (error: unknown) => port.postMessage({ error: String(error) }),
  );
}
