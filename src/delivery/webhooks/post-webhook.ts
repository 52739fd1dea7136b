import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import {
  ForbiddenAddressError,
  isPublicAddress,
  publicOnlyLookup,
} from '../../platform/public-address.ts';
import { webhookUrlProblem } from './webhook-address.ts';

export type WebhookResponse = { status: number };

/**
 * One POST of a webhook body: no redirects followed, a deadline for the whole exchange, the
 * address rules applied to the resolved address (see webhook-address.ts). Resolves with the
 * status whatever it is; rejects when there is no answer (refused, timed out, forbidden address).
 */
export function postWebhook(input: {
  url: string;
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
  allowPrivate: boolean;
}): Promise<WebhookResponse> {
  const problem = webhookUrlProblem(input.url, input.allowPrivate);
  if (problem) return Promise.reject(new ForbiddenAddressError(`the URL ${problem}`));
  const url = new URL(input.url);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  // A literal address is connected to without a lookup: judge it here.
  if (isIP(host) !== 0 && !isPublicAddress(host) && !input.allowPrivate) {
    return Promise.reject(new ForbiddenAddressError());
  }
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(
      url,
      {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'Content-Length': String(Buffer.byteLength(input.body)),
          'User-Agent': 'Earshot-Webhook/1.0',
          ...input.headers,
        },
        lookup: publicOnlyLookup({ allowPrivate: input.allowPrivate }) as never,
        signal: AbortSignal.timeout(input.timeoutMs),
      },
      (response) => {
        // Read (a little of) the answer so the connection is released, then report the status.
        let seen = 0;
        response.on('data', (chunk: Buffer) => {
          seen += chunk.length;
          if (seen > 64 * 1024) response.destroy();
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0 }));
        response.on('error', () => resolve({ status: response.statusCode ?? 0 }));
      },
    );
    request.on('error', (error) => {
      if (error.name === 'AbortError' || error.name === 'TimeoutError') {
        reject(new Error(`no answer within ${input.timeoutMs} ms`));
      } else reject(error);
    });
    request.end(input.body);
  });
}
