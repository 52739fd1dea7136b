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

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'earshot' },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination,
  );
}
