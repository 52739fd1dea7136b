import { Writable } from 'node:stream';
import {
  ChangePasswordCommand,
  ConfirmForgotPasswordCommand,
  ConfirmSignUpCommand,
  ForgotPasswordCommand,
  GetUserCommand,
  InitiateAuthCommand,
  SignUpCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { expect, test } from 'vitest';
import { idpUsers } from '../../src/db/schema/identity.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { TEST_PASSWORD, uniqueEmail } from '../support/factories.ts';
import { failureOf, startTestApp } from '../support/test-app.ts';

// Every flow once, with every log line kept: no password, code, token or full address appears.
test('no password, code, token or e-mail address reaches the logs', async () => {
  const app = await startTestApp({ captureLogs: true });
  try {
    const sdk = app.cognito();
    const clientId = app.identity.clientId;
    const email = uniqueEmail('private');
    const secrets: string[] = [
      TEST_PASSWORD,
      'New-Password-2',
      'Third-Password-3',
      'Wrong-Password-9',
    ];

    await sdk.send(
      new SignUpCommand({ ClientId: clientId, Username: email, Password: TEST_PASSWORD }),
    );
    const signUpCode = await app.smtp!.nextCode(email);
    secrets.push(signUpCode);
    await sdk.send(
      new ConfirmSignUpCommand({
        ClientId: clientId,
        Username: email,
        ConfirmationCode: signUpCode,
      }),
    );
    await failureOf(
      sdk.send(
        new InitiateAuthCommand({
          AuthFlow: 'USER_PASSWORD_AUTH',
          ClientId: clientId,
          AuthParameters: { USERNAME: email, PASSWORD: 'Wrong-Password-9' },
        }),
      ),
    );
    const tokens = (
      await sdk.send(
        new InitiateAuthCommand({
          AuthFlow: 'USER_PASSWORD_AUTH',
          ClientId: clientId,
          AuthParameters: { USERNAME: email, PASSWORD: TEST_PASSWORD },
        }),
      )
    ).AuthenticationResult!;
    secrets.push(tokens.AccessToken!, tokens.IdToken!, tokens.RefreshToken!);
    await sdk.send(
      new InitiateAuthCommand({
        AuthFlow: 'REFRESH_TOKEN_AUTH',
        ClientId: clientId,
        AuthParameters: { REFRESH_TOKEN: tokens.RefreshToken! },
      }),
    );
    await sdk.send(new GetUserCommand({ AccessToken: tokens.AccessToken! }));
    await app.api('/api/user', { token: tokens.AccessToken!, method: 'POST', body: {} });
    await app.api('/api/user', { token: `Bearer ${tokens.AccessToken}` });
    await app.api('/api/user', { token: 'forged.token.value' });
    await sdk.send(
      new ChangePasswordCommand({
        AccessToken: tokens.AccessToken!,
        PreviousPassword: TEST_PASSWORD,
        ProposedPassword: 'New-Password-2',
      }),
    );
    await sdk.send(new ForgotPasswordCommand({ ClientId: clientId, Username: email }));
    const resetCode = await app.smtp!.nextCode(email);
    secrets.push(resetCode);
    await sdk.send(
      new ConfirmForgotPasswordCommand({
        ClientId: clientId,
        Username: email,
        ConfirmationCode: resetCode,
        Password: 'Third-Password-3',
      }),
    );

    const logs = app.logs.join('');
    expect(logs).toContain('identity request');
    expect(logs).toContain('mail sent');
    for (const secret of secrets) expect(logs).not.toContain(secret);
    expect(logs).not.toContain(email);
  } finally {
    await app.close();
  }
});

// A failed query's error carries its parameters (here an address and an argon2id hash) in its
// `params` and its message; the driver's error can quote the row. None of it may be logged.
test('the log of a forced database error holds no query parameter', async () => {
  const app = await startTestApp();
  try {
    const email = uniqueEmail('leak');
    const passwordHash = '$argon2id$v=19$m=19456,t=2,p=1$c2VjcmV0c2FsdA$c2VjcmV0aGFzaHZhbHVl';
    const failure = await app.database.db
      .insert(idpUsers)
      .values({
        sub: 'not-a-uuid',
        email,
        passwordHash,
        status: 'CONFIRMED',
        createdAt: new Date(),
        updatedAt: new Date(),
      })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(failure).toBeInstanceOf(Error);
    // The unserialised error does hold them: the test would see a leak.
    expect(String((failure as Error).message)).toContain(passwordHash);

    const lines: string[] = [];
    const logger = createLogger(
      'debug',
      new Writable({
        write(chunk, _encoding, done) {
          lines.push(String(chunk));
          done();
        },
      }),
    );
    logger.error({ err: failure }, 'identity operation failed');
    logger.error({ error: failure }, 'unhandled error');
    logger.child({ component: 'idp' }).warn({ err: new Error('outer', { cause: failure }) }, 'x');
    const log = lines.join('');
    expect(log).toContain('Failed query: insert into');
    expect(log).toContain('"code":"22P02"');
    expect(log).toContain('"stack"');
    expect(log).not.toContain(passwordHash);
    expect(log).not.toContain(email);
    expect(log).not.toContain('not-a-uuid');
  } finally {
    await app.close();
  }
});
