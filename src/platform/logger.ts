import pino from 'pino';

export type Logger = pino.Logger;

/**
 * Structured JSON logs. Secrets never reach them: the redaction list covers every header and
 * field that can carry a password, a code or a token, wherever a caller logs it.
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  '*.password',
  '*.Password',
  '*.PreviousPassword',
  '*.ProposedPassword',
  '*.ConfirmationCode',
  '*.AccessToken',
  '*.RefreshToken',
  '*.IdToken',
  '*.token',
  '*.code',
  '*.secret',
  'AuthParameters.PASSWORD',
  'AuthParameters.REFRESH_TOKEN',
  'AuthParameters.SECRET_HASH',
];

/**
 * Errors are written as their type, message, stack, SQLSTATE-like `code` and cause, nothing else:
 * a failed query's error carries its parameters (an e-mail address, a password hash) in
 * `params` and in its message, and the database's own message can quote a value ("invalid
 * input syntax for type uuid: "…"") or a row (`detail`). A database error is therefore written as
 * its SQLSTATE and the names of the constraint, table and column involved.
 */
export function serializeError(error: unknown, depth = 0): unknown {
  if (!(error instanceof Error)) return error;
  const fields = error as Error & Record<string, unknown>;
  const fromDatabase = typeof fields.severity === 'string' || typeof fields.routine === 'string';
  // Drizzle's DrizzleQueryError: "Failed query: <sql>\nparams: <values>".
  let message = error.message;
  if (fields.params !== undefined) message = message.replace(/\nparams:[\s\S]*$/, '');
  if (fromDatabase) message = `database error ${String(fields.code ?? 'unknown')}`;
  const frames = (error.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line));
  const names: Record<string, string> = {};
  for (const key of ['code', 'constraint', 'table', 'column']) {
    const value = fields[key];
    if (typeof value === 'string' || typeof value === 'number') names[key] = String(value);
  }
  return {
    type: error.constructor.name,
    message,
    stack: [`${error.name}: ${message}`, ...frames].join('\n'),
    ...names,
    ...(error.cause !== undefined && depth < 3
      ? { cause: serializeError(error.cause, depth + 1) }
      : {}),
  };
}

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'earshot' },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      serializers: { err: serializeError, error: serializeError },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination,
  );
}
