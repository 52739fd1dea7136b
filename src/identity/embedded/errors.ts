/**
 * Errors of the embedded service, named and worded as Cognito's (docs/product.md, "Error names").
 * The wire layer turns one into HTTP 400 (500 for InternalErrorException) with `__type`,
 * `x-amzn-ErrorType` and `x-amzn-ErrorMessage`, so the AWS SDK reports `error.name` as `type`.
 */
export class CognitoError extends Error {
  override name = 'CognitoError';
  readonly type: string;
  readonly status: 400 | 413 | 500;

  constructor(type: string, message: string, status: 400 | 413 | 500 = 400) {
    super(message);
    this.type = type;
    this.status = status;
  }
}

/** The messages Cognito is known to use, word for word; the rest are ours and say what to do. */
export const errors = {
  incorrectCredentials: () =>
    new CognitoError('NotAuthorizedException', 'Incorrect username or password.'),
  passwordAttemptsExceeded: () =>
    new CognitoError('NotAuthorizedException', 'Password attempts exceeded'),
  userNotConfirmed: () => new CognitoError('UserNotConfirmedException', 'User is not confirmed.'),
  userNotFound: () => new CognitoError('UserNotFoundException', 'User does not exist.'),
  usernameExists: () =>
    new CognitoError('UsernameExistsException', 'An account with the given email already exists.'),
  aliasExists: () =>
    new CognitoError('AliasExistsException', 'An account with the given email already exists.'),
  alreadyConfirmed: () =>
    new CognitoError(
      'NotAuthorizedException',
      'User cannot be confirmed. Current status is CONFIRMED',
    ),
  resendToConfirmed: () =>
    new CognitoError('InvalidParameterException', 'User is already confirmed.'),
  codeMismatch: () =>
    new CognitoError(
      'CodeMismatchException',
      'Invalid verification code provided, please try again.',
    ),
  codeExpired: () =>
    new CognitoError('ExpiredCodeException', 'Invalid code provided, please request a code again.'),
  tooManyFailedAttempts: () =>
    new CognitoError(
      'TooManyFailedAttemptsException',
      'Too many failed attempts with this code. Please request a new code.',
    ),
  limitExceeded: () =>
    new CognitoError(
      'LimitExceededException',
      'Attempt limit exceeded, please try after some time.',
    ),
  rateExceeded: () => new CognitoError('TooManyRequestsException', 'Rate exceeded'),
  invalidPassword: (reason: string) =>
    new CognitoError('InvalidPasswordException', `Password did not conform with policy: ${reason}`),
  invalidParameter: (message: string) => new CognitoError('InvalidParameterException', message),
  missingParameter: (name: string) =>
    new CognitoError('InvalidParameterException', `Missing required parameter ${name}`),
  flowNotEnabled: (flow: string) =>
    new CognitoError('InvalidParameterException', `${flow} flow not enabled for this client`),
  unknownClient: (clientId: string) =>
    new CognitoError('ResourceNotFoundException', `User pool client ${clientId} does not exist.`),
  secretNotReceived: (clientId: string) =>
    new CognitoError(
      'NotAuthorizedException',
      `Client ${clientId} is configured for secret but secret was not received`,
    ),
  secretHashMismatch: (clientId: string) =>
    new CognitoError(
      'NotAuthorizedException',
      `Unable to verify secret hash for client ${clientId}`,
    ),
  refreshSecretHashMismatch: (clientId: string) =>
    new CognitoError(
      'NotAuthorizedException',
      `SecretHash does not match for the client: ${clientId}`,
    ),
  invalidRefreshToken: () => new CognitoError('NotAuthorizedException', 'Invalid Refresh Token.'),
  refreshTokenRevoked: () =>
    new CognitoError('NotAuthorizedException', 'Refresh Token has been revoked'),
  refreshTokenExpired: () =>
    new CognitoError('NotAuthorizedException', 'Refresh Token has expired'),
  invalidAccessToken: () => new CognitoError('NotAuthorizedException', 'Invalid Access Token'),
  accessTokenExpired: () => new CognitoError('NotAuthorizedException', 'Access Token has expired'),
  accessTokenRevoked: () =>
    new CognitoError('NotAuthorizedException', 'Access Token has been revoked'),
  clientUnauthorized: (message: string) => new CognitoError('UnauthorizedException', message),
  unsupportedTokenType: () =>
    new CognitoError('UnsupportedTokenTypeException', 'Only refresh tokens can be revoked.'),
  codeDeliveryFailure: () =>
    new CognitoError(
      'CodeDeliveryFailureException',
      'Unable to deliver the verification code. Please try again later.',
    ),
  internal: () =>
    new CognitoError(
      'InternalErrorException',
      'The identity service had an internal error. Please try again.',
      500,
    ),
} as const;
