import { z } from 'zod';
import type { HttpClient } from '../http/http-client.ts';
import { SourceError } from '../source.ts';

const tokenSchema = z.object({
  access_token: z.string().min(1),
  expires_in: z.coerce.number().positive(),
});

export type AppOnlyToken = {
  /** A valid bearer token, fetched or renewed when it is missing or about to expire. */
  get(signal?: AbortSignal): Promise<string>;
  /** Forgets the token (the API answered 401: expired early or revoked). */
  invalidate(): void;
};

/**
 * Reddit's app-only OAuth (client credentials): one token for the whole app, renewed a minute
 * (or a tenth of its life, if shorter) before it expires, and at once after a 401.
 */
export function createAppOnlyToken(options: {
  readonly http: HttpClient;
  readonly authUrl: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly now?: () => number;
}): AppOnlyToken {
  const now = options.now ?? Date.now;
  let token: { value: string; renewAt: number } | null = null;
  let pending: Promise<string> | null = null;

  async function fetchToken(signal?: AbortSignal): Promise<string> {
    const basic = Buffer.from(`${options.clientId}:${options.clientSecret}`).toString('base64');
    const { json } = await options.http.getJson(options.authUrl, {
      method: 'POST',
      headers: {
        authorization: `Basic ${basic}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
      signal,
    });
    const parsed = tokenSchema.safeParse(json);
    if (!parsed.success) {
      // Reddit answers 200 with {"error": "invalid_grant"} for some refusals.
      throw new SourceError('auth', 'the Reddit token endpoint refused the app credentials');
    }
    const lifeMs = parsed.data.expires_in * 1000;
    token = {
      value: parsed.data.access_token,
      renewAt: now() + lifeMs - Math.min(60_000, lifeMs / 10),
    };
    return token.value;
  }

  return {
    async get(signal) {
      if (token && now() < token.renewAt) return token.value;
      pending ??= fetchToken(signal).finally(() => {
        pending = null;
      });
      return pending;
    },
    invalidate() {
      token = null;
    },
  };
}
