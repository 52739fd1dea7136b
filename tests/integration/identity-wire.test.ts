import {
  CognitoIdentityProviderServiceException,
  InitiateAuthCommand,
  SignUpCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { TEST_PASSWORD, uniqueEmail } from '../support/factories.ts';
import { failureOf, startTestApp, type TestApp } from '../support/test-app.ts';

// The embedded service's framing as Cognito's (docs/product.md, "Framing" and
// "Errors on the wire"), checked on the raw wire and through the real AWS SDK v3 client.
describe('identity service wire protocol', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  test('identifiers have AWS formats and /api/config names the embedded endpoint', async () => {
    expect(app.identity.userPoolId).toMatch(/^us-east-2_[A-Za-z0-9]{9}$/);
    expect(app.identity.clientId).toMatch(/^[a-z0-9]{26}$/);
    const config = (await (await app.api('/api/config')).json()) as { identity: unknown };
    expect(config.identity).toEqual({
      endpoint: `${app.url}/idp`,
      region: 'us-east-2',
      userPoolId: app.identity.userPoolId,
      clientId: app.identity.clientId,
    });
  });

  test('a success answers 200 as application/x-amz-json-1.1 with a request id and CORS', async () => {
    const answer = await app.idp('SignUp', {
      ClientId: app.identity.clientId,
      Username: uniqueEmail(),
      Password: TEST_PASSWORD,
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/x-amz-json-1.1');
    expect(answer.headers.get('x-amzn-requestid')).toMatch(/^[0-9a-f-]{36}$/);
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
    expect(answer.headers.get('date')).toBeTruthy();
    expect(answer.body.UserSub).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });

  test('an error answers 400 with __type, message, x-amzn-ErrorType "Name:", ErrorMessage and CORS', async () => {
    const answer = await app.idp('InitiateAuth', {
      AuthFlow: 'USER_PASSWORD_AUTH',
      ClientId: app.identity.clientId,
      AuthParameters: { USERNAME: uniqueEmail(), PASSWORD: 'Wrong-password-1' },
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      __type: 'NotAuthorizedException',
      message: 'Incorrect username or password.',
    });
    expect(answer.headers.get('x-amzn-errortype')).toBe('NotAuthorizedException:');
    expect(answer.headers.get('x-amzn-errormessage')).toBe('Incorrect username or password.');
    expect(answer.headers.get('x-amzn-requestid')).toMatch(/^[0-9a-f-]{36}$/);
    expect(answer.headers.get('content-type')).toBe('application/x-amz-json-1.1');
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
  });

  test('the SDK reports the error name, message, status and request id', async () => {
    const sdk = app.cognito();
    const error = await sdk
      .send(
        new InitiateAuthCommand({
          AuthFlow: 'USER_PASSWORD_AUTH',
          ClientId: app.identity.clientId,
          AuthParameters: { USERNAME: uniqueEmail(), PASSWORD: 'Wrong-password-1' },
        }),
      )
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CognitoIdentityProviderServiceException);
    const failure = error as CognitoIdentityProviderServiceException;
    expect(failure.name).toBe('NotAuthorizedException');
    expect(failure.message).toBe('Incorrect username or password.');
    expect(failure.$fault).toBe('client');
    expect(failure.$metadata.httpStatusCode).toBe(400);
    expect(failure.$metadata.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  test('a CORS preflight allows POST and the SDK’s own headers', async () => {
    const response = await fetch(`${app.url}/idp/`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://app.example.com',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers':
          'content-type,x-amz-target,x-amz-user-agent,amz-sdk-invocation-id,amz-sdk-request',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-methods')).toContain('POST');
    const allowed = response.headers.get('access-control-allow-headers') ?? '';
    for (const header of [
      'content-type',
      'x-amz-target',
      'x-amz-user-agent',
      'amz-sdk-invocation-id',
      'amz-sdk-request',
    ]) {
      expect(allowed).toContain(header);
    }
    expect(response.headers.get('access-control-expose-headers')).toContain('x-amzn-requestid');
  });

  test('POST is accepted on /idp and on /idp/', async () => {
    for (const path of ['/idp', '/idp/']) {
      const response = await fetch(`${app.url}${path}`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/x-amz-json-1.1',
          'X-Amz-Target': 'AWSCognitoIdentityProviderService.GetUser',
        },
        body: JSON.stringify({ AccessToken: 'abc.def.ghi' }),
      });
      expect(response.status, path).toBe(400);
      expect(((await response.json()) as { message: string }).message, path).toBe(
        'Invalid Access Token',
      );
    }
  });

  test('an unknown or missing target answers UnknownOperationException', async () => {
    for (const target of ['AWSCognitoIdentityProviderService.AdminDeleteUser', 'Nonsense', null]) {
      const answer = await app.idp(null, {}, target ? { 'X-Amz-Target': target } : {});
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ __type: 'UnknownOperationException' });
      expect(answer.headers.get('x-amzn-errortype')).toBe('UnknownOperationException:');
    }
  });

  test('malformed bodies answer SerializationException, never a 500', async () => {
    for (const body of ['{', 'null', '[]', '"text"', '{"ClientId": 5, "Username": "a@b.co"}']) {
      const answer = await app.idp('SignUp', body);
      expect(answer.status, body).toBe(400);
      expect(answer.body.__type, body).toBe('SerializationException');
    }
    const typed = await app.idp('InitiateAuth', {
      AuthFlow: 'USER_PASSWORD_AUTH',
      ClientId: 'x',
      AuthParameters: [],
    });
    expect(typed.body.__type).toBe('SerializationException');
    const wrongType = await app.idp('SignUp', {}, { 'Content-Type': 'text/plain' });
    expect(wrongType.body.__type).toBe('SerializationException');
  });

  test('missing and out-of-constraint members answer InvalidParameterException in AWS’s words', async () => {
    const missing = await app.idp('SignUp', { Username: uniqueEmail() });
    expect(missing.body).toEqual({
      __type: 'InvalidParameterException',
      message:
        "2 validation errors detected: Value null at 'clientId' failed to satisfy constraint: Member must not be null; Value null at 'password' failed to satisfy constraint: Member must not be null",
    });
    const pattern = await app.idp('SignUp', {
      ClientId: 'not a client!',
      Username: uniqueEmail(),
      Password: TEST_PASSWORD,
    });
    expect(pattern.body.message).toBe(
      "1 validation error detected: Value at 'clientId' failed to satisfy constraint: Member must satisfy regular expression pattern: [\\w+]+",
    );
    const flow = await app.idp('InitiateAuth', {
      AuthFlow: 'MAGIC',
      ClientId: app.identity.clientId,
    });
    expect(flow.body.message).toContain(
      "Value at 'authFlow' failed to satisfy constraint: Member must satisfy enum value set: [USER_SRP_AUTH",
    );
    const nested = await app.idp('SignUp', {
      ClientId: app.identity.clientId,
      Username: uniqueEmail(),
      Password: TEST_PASSWORD,
      UserAttributes: [{ Value: 'Ada' }],
    });
    expect(nested.body.message).toBe(
      "1 validation error detected: Value null at 'userAttributes.1.member.name' failed to satisfy constraint: Member must not be null",
    );
  });

  test('a password is never echoed in a validation message', async () => {
    const answer = await app.idp('SignUp', {
      ClientId: app.identity.clientId,
      Username: uniqueEmail(),
      Password: ' leading-space-Secret1',
    });
    expect(answer.body.__type).toBe('InvalidParameterException');
    expect(String(answer.body.message)).not.toContain('Secret1');
  });

  test('an unknown ClientId answers ResourceNotFoundException', async () => {
    const failure = await failureOf(
      app.cognito().send(
        new SignUpCommand({
          ClientId: 'a'.repeat(26),
          Username: uniqueEmail(),
          Password: TEST_PASSWORD,
        }),
      ),
    );
    expect(failure).toEqual({
      name: 'ResourceNotFoundException',
      message: `User pool client ${'a'.repeat(26)} does not exist.`,
      status: 400,
    });
  });

  test('a body over 64 KB is refused without reading it all', async () => {
    const answer = await app.idp('SignUp', {
      ClientId: app.identity.clientId,
      Padding: 'x'.repeat(70_000),
    });
    expect(answer.status).toBe(413);
    expect(answer.body.__type).toBe('SerializationException');
  });

  test('the JWKS is published with one RS256 key per token use, and an OIDC discovery document', async () => {
    const response = await fetch(`${app.url}/idp/${app.identity.userPoolId}/.well-known/jwks.json`);
    expect(response.status).toBe(200);
    const { keys } = (await response.json()) as { keys: Record<string, string>[] };
    expect(keys).toHaveLength(2);
    for (const key of keys) {
      expect(Object.keys(key).sort()).toEqual(['alg', 'e', 'kid', 'kty', 'n', 'use']);
      expect(key).toMatchObject({ alg: 'RS256', kty: 'RSA', use: 'sig', e: 'AQAB' });
    }
    expect(new Set(keys.map((key) => key.kid)).size).toBe(2);
    const discovery = (await (
      await fetch(`${app.identity.issuer}/.well-known/openid-configuration`)
    ).json()) as Record<string, unknown>;
    expect(discovery.issuer).toBe(`${app.url}/idp/${app.identity.userPoolId}`);
    expect(discovery.jwks_uri).toBe(`${app.identity.issuer}/.well-known/jwks.json`);
    expect((await fetch(`${app.url}/idp/us-east-2_Other1234/.well-known/jwks.json`)).status).toBe(
      404,
    );
  });

  test('fuzzed bodies for every operation never produce a 5xx', async () => {
    const operations = [
      'InitiateAuth',
      'SignUp',
      'ConfirmSignUp',
      'ResendConfirmationCode',
      'ForgotPassword',
      'ConfirmForgotPassword',
      'GetUser',
      'UpdateUserAttributes',
      'ChangePassword',
      'GlobalSignOut',
      'RevokeToken',
      'DeleteUser',
    ];
    const bodies: unknown[] = [
      {},
      { ClientId: app.identity.clientId },
      { ClientId: app.identity.clientId, Username: '', Password: '' },
      {
        ClientId: app.identity.clientId,
        Username: 'x'.repeat(500),
        ConfirmationCode: '1'.repeat(3000),
      },
      { AccessToken: 'a.b.c', Token: 'a.b.c', ClientId: app.identity.clientId, UserAttributes: [] },
      { AccessToken: 'e'.repeat(20_000) },
      { AuthFlow: 'REFRESH_TOKEN_AUTH', ClientId: app.identity.clientId, AuthParameters: {} },
      { UserAttributes: [{ Name: 'email', Value: 'x' }], AccessToken: '' },
      { ClientId: app.identity.clientId, Username: '💥@example.com', Password: 'Ünïcode-Pass1!' },
    ];
    for (const operation of operations) {
      for (const body of bodies) {
        const answer = await app.idp(operation, body);
        const label = `${operation} ${JSON.stringify(body).slice(0, 80)}`;
        expect(answer.status, label).toBeLessThan(500);
        if (answer.status !== 200) expect(typeof answer.body.__type, label).toBe('string');
      }
    }
  });
});
