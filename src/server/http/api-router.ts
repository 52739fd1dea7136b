import { OpenAPIHono } from '@hono/zod-openapi';
import type { z } from 'zod';
import { ValidationError } from '../../core/errors.ts';
import { apiErrorBodySchema } from '../../shared/api-error.ts';
import type { AuthEnv } from './require-auth.ts';

/**
 * The one way to declare API routes (docs/ARCHITECTURE.md, "Adding an API route"). The API's root
 * and every route file build their Hono instance here, so a request that fails a route's schema
 * throws the domain's ValidationError, which the one error handler answers as 400
 * VALIDATION_FAILED in the JSON error shape. (zod-openapi also looks the hook up through the
 * parents a router is mounted on, so a route cannot answer in another shape.) Handlers read the
 * signed-in user from `c.get('auth')`, set by requireAuth before any route runs.
 */
export function createApiRouter(): OpenAPIHono<AuthEnv> {
  return new OpenAPIHono<AuthEnv>({
    defaultHook: (result) => {
      if (!result.success) throw ValidationError.fromZod(result.error);
    },
  });
}

/** The OpenAPI security scheme of signed-in routes; registered once, on the API's root. */
export const ACCESS_TOKEN_SCHEME = 'accessToken';

/** The OpenAPI security scheme of API keys (`Authorization: Bearer esk_…`). */
export const API_KEY_SCHEME = 'apiKey';

/**
 * `security` of a route that takes an access token or an API key (every route but the public
 * and the account ones; which scope a key needs: src/server/http/api-key-access.ts).
 */
export const signedIn: Record<string, string[]>[] = [
  { [ACCESS_TOKEN_SCHEME]: [] },
  { [API_KEY_SCHEME]: [] },
];

/** `security` of an account route: the access token only, never an API key. */
export const signedInOnly: Record<string, string[]>[] = [{ [ACCESS_TOKEN_SCHEME]: [] }];

/** Registers both schemes once, on the API's root. */
export function registerSecuritySchemes(api: OpenAPIHono<AuthEnv>): void {
  api.openAPIRegistry.registerComponent('securitySchemes', ACCESS_TOKEN_SCHEME, {
    type: 'apiKey',
    in: 'header',
    name: 'Authorization',
    description: 'The Cognito access token, raw (as the web app sends it) or as `Bearer <token>`.',
  });
  api.openAPIRegistry.registerComponent('securitySchemes', API_KEY_SCHEME, {
    type: 'http',
    scheme: 'bearer',
    description:
      'An API key from Settings → API keys: `Authorization: Bearer esk_…`. A `read` key reads monitors, matches, stats, alert feeds and the delivery history (and previews a query); a `write` key also changes monitors and matches, makes or resets feed links and sends a failed delivery again. Keys never open account routes (403), and each key may make API_KEY_REQUESTS_PER_MINUTE requests a minute (429 with Retry-After).',
  });
}

/** `content` of a JSON request body or response. */
export function jsonContent<Schema extends z.ZodType>(schema: Schema) {
  return { content: { 'application/json': { schema } } };
}

const ERROR_DESCRIPTIONS = {
  400: 'The request is not valid; `details` lists each field’s problem',
  401: 'No valid access token or API key',
  403: 'An API key on a route its scope does not allow (account routes take no key)',
  404: 'Not found, or not the signed-in user’s',
  409: 'Conflicts with what is stored',
  413: 'The request body is too large',
  422: 'A limit is reached',
  429: 'Too many requests; see Retry-After',
  503: 'A dependency does not answer; try again',
} as const;

export type ErrorStatus = keyof typeof ERROR_DESCRIPTIONS;

/** One error response in the JSON error shape, with its own description. */
export function errorResponse(description: string) {
  return { description, ...jsonContent(apiErrorBodySchema) };
}

/** The error responses a route can give, in the JSON error shape: `...errorResponses(400, 401)`. */
export function errorResponses<const Statuses extends readonly ErrorStatus[]>(
  ...statuses: Statuses
): Record<Statuses[number], ReturnType<typeof errorResponse>> {
  const responses: Partial<Record<ErrorStatus, ReturnType<typeof errorResponse>>> = {};
  for (const status of statuses) responses[status] = errorResponse(ERROR_DESCRIPTIONS[status]);
  return responses as Record<Statuses[number], ReturnType<typeof errorResponse>>;
}
