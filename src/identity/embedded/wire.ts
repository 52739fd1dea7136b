import { randomUUID } from 'node:crypto';
import { type Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { clientAddress } from '../../platform/client-address.ts';
import type { ServiceContext } from './context.ts';
import { CognitoError, errors } from './errors.ts';
import { OPERATIONS } from './operations.ts';
import { parseInput } from './validation.ts';

/**
 * Cognito's wire protocol (awsJson1_1; docs/product.md, "Framing" and "Errors on the wire"): `POST
 * /idp` or `/idp/` with `X-Amz-Target: AWSCognitoIdentityProviderService.<Operation>` and a JSON
 * body; JSON answers as `application/x-amz-json-1.1` with `x-amzn-RequestId`; errors as HTTP 400
 * with `{"__type","message"}`, `x-amzn-ErrorType: <Name>:` and `x-amzn-ErrorMessage`. CORS lets the
 * browser SDK's own headers through, on errors too. Request bodies are never logged.
 */

const TARGET_PREFIX = 'AWSCognitoIdentityProviderService.';
const CONTENT_TYPE = 'application/x-amz-json-1.1';
const MAX_BODY_BYTES = 64 * 1024;

const CORS_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'POST, GET, OPTIONS',
  'Access-Control-Allow-Headers':
    'content-type, x-amz-target, x-amz-user-agent, amz-sdk-invocation-id, amz-sdk-request, x-amz-date, x-amz-content-sha256, authorization, cache-control',
  'Access-Control-Expose-Headers': 'x-amzn-requestid, x-amzn-errortype, x-amzn-errormessage, date',
  'Access-Control-Max-Age': '86400',
};

export type WireOptions = {
  /** Take the client address from the last X-Forwarded-For hop (set by our own proxy). */
  trustProxy: boolean;
};

export function createWireRoutes(ctx: ServiceContext, options: WireOptions): Hono {
  const app = new Hono();

  app.use('*', async (c, next) => {
    await next();
    for (const [name, value] of Object.entries(CORS_HEADERS)) c.res.headers.set(name, value);
  });
  app.options('*', (c) => c.body(null, 204));

  app.get('/:poolId/.well-known/jwks.json', (c) => {
    if (c.req.param('poolId') !== ctx.pool.userPoolId) return c.json({ message: 'Not found' }, 404);
    c.header('Cache-Control', 'public, max-age=300');
    return c.json(ctx.keys.jwks());
  });
  app.get('/:poolId/.well-known/openid-configuration', (c) => {
    if (c.req.param('poolId') !== ctx.pool.userPoolId) return c.json({ message: 'Not found' }, 404);
    const issuer = ctx.pool.issuer;
    return c.json({
      issuer,
      jwks_uri: `${issuer}/.well-known/jwks.json`,
      id_token_signing_alg_values_supported: ['RS256'],
      subject_types_supported: ['public'],
      response_types_supported: [],
      scopes_supported: ['aws.cognito.signin.user.admin', 'openid', 'email', 'profile'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      claims_supported: [
        'sub',
        'email',
        'email_verified',
        'given_name',
        'family_name',
        'cognito:username',
      ],
    });
  });

  const limitBody = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: () =>
      errorResponse(
        randomUUID(),
        new CognitoError('SerializationException', 'The request body is too large.', 413),
      ),
  });
  const handle = async (c: Context) => {
    const requestId = randomUUID();
    const started = performance.now();
    const operation = operationName(c.req.header('x-amz-target'));
    const known = operation !== undefined && Object.hasOwn(OPERATIONS, operation);
    let response: Response;
    let errorType: string | undefined;
    try {
      response = await dispatch(
        c,
        ctx,
        operation,
        { ip: clientAddress(c, options.trustProxy), requestId },
        requestId,
      );
    } catch (error) {
      const expected = error instanceof CognitoError ? error : undefined;
      if (!expected)
        ctx.logger.error({ err: error, operation, requestId }, 'identity operation failed');
      const answered = expected ?? errors.internal();
      errorType = answered.type;
      response = errorResponse(requestId, answered);
    }
    ctx.logger.info(
      {
        operation: known ? operation : 'unknown',
        status: response.status,
        error: errorType,
        durationMs: Math.round((performance.now() - started) * 10) / 10,
        requestId,
      },
      'identity request',
    );
    return response;
  };
  // The SDK posts to the endpoint path plus "/": accept /idp, /idp/ and anything below.
  app.post('*', limitBody, handle);
  return app;
}

function operationName(target: string | undefined): string | undefined {
  if (!target?.startsWith(TARGET_PREFIX)) return undefined;
  return target.slice(TARGET_PREFIX.length);
}

async function dispatch(
  c: Context,
  ctx: ServiceContext,
  name: string | undefined,
  request: { ip: string; requestId: string },
  requestId: string,
): Promise<Response> {
  const operation = name && Object.hasOwn(OPERATIONS, name) ? OPERATIONS[name] : undefined;
  if (!operation) {
    // What AWS JSON services answer for a target they do not know: no message.
    return errorResponse(requestId, new CognitoError('UnknownOperationException', ''));
  }
  const contentType = c.req.header('content-type') ?? '';
  if (!/^application\/(x-amz-json-1\.[01]|json)\b/i.test(contentType)) {
    throw new CognitoError('SerializationException', `Expected Content-Type ${CONTENT_TYPE}.`);
  }
  const text = await c.req.text();
  let body: unknown;
  try {
    body = text.trim() === '' ? {} : JSON.parse(text);
  } catch {
    throw new CognitoError('SerializationException', 'The request body is not valid JSON.');
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new CognitoError('SerializationException', 'The request body must be a JSON object.');
  }
  const input = parseInput(operation.input, body);
  const output = await operation.run(ctx, input, request);
  return new Response(JSON.stringify(output), {
    status: 200,
    headers: { 'Content-Type': CONTENT_TYPE, 'x-amzn-RequestId': requestId },
  });
}

function errorResponse(requestId: string, error: CognitoError): Response {
  const body = error.message
    ? { __type: error.type, message: error.message }
    : { __type: error.type };
  const headers: Record<string, string> = {
    'Content-Type': CONTENT_TYPE,
    'x-amzn-RequestId': requestId,
    'x-amzn-ErrorType': `${error.type}:`,
  };
  if (error.message) headers['x-amzn-ErrorMessage'] = headerSafe(error.message);
  for (const [name, value] of Object.entries(CORS_HEADERS)) headers[name] = value;
  return new Response(JSON.stringify(body), { status: error.status, headers });
}

/** Header values must be printable Latin-1 without line breaks. */
function headerSafe(value: string): string {
  return value.replace(/[^\x20-\x7e]/g, '?').slice(0, 1024);
}
