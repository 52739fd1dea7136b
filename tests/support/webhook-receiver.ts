import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type ReceivedCall = { headers: http.IncomingHttpHeaders; body: string; at: number };
type Answer = 'ok' | 'fail' | 'hang' | 'gone';

export type WebhookReceiver = {
  /** `http://127.0.0.1:<port>/hook` */
  url: string;
  port: number;
  calls: ReceivedCall[];
  /** Answers for the next calls, in order; after them every call is answered 200. */
  script(...answers: Answer[]): void;
  /** Calls that were answered 200 (what the receiver "took"). */
  taken(): ReceivedCall[];
  close(): Promise<void>;
};

/** A real HTTP server on loopback that records webhook calls and answers as scripted. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const calls: ReceivedCall[] = [];
  const taken: ReceivedCall[] = [];
  let answers: Answer[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const call = {
        headers: request.headers,
        body: Buffer.concat(chunks).toString(),
        at: Date.now(),
      };
      calls.push(call);
      const answer = answers.shift() ?? 'ok';
      if (answer === 'hang') return; // never answers: the sender's deadline has to end it
      if (answer === 'fail') return void response.writeHead(500).end('boom');
      if (answer === 'gone') return void response.writeHead(404).end('no_service');
      taken.push(call);
      response.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    calls,
    script(...next) {
      answers = next;
    },
    taken: () => taken,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
