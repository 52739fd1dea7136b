/**
 * Every identity error a flow can meet (docs/product.md, "Error names"), as a sentence for people
 * and the field it belongs to. Never shows the raw error name.
 */
export type IdentityFlow =
  | 'login'
  | 'signup'
  | 'confirm'
  | 'resend'
  | 'forgot'
  | 'reset'
  | 'change-password'
  | 'profile'
  | 'change-email'
  | 'delete';

export type IdentityField = 'email' | 'password' | 'newPassword' | 'code' | 'form';

export type IdentityProblem = {
  field: IdentityField;
  message: string;
  /** What the page can offer next, e.g. going to the confirmation page. */
  action?: 'confirm' | 'reset' | 'login' | 'resend';
};

const PASSWORD_REASONS: [RegExp, string][] = [
  [/not long enough/i, 'Use at least 8 characters.'],
  [/uppercase/i, 'Add an upper-case letter (A–Z).'],
  [/lowercase/i, 'Add a lower-case letter (a–z).'],
  [/numeric/i, 'Add a digit (0–9).'],
  [/symbol/i, 'Add a symbol such as ! ? # or %.'],
];

export function errorName(error: unknown): string {
  if (error && typeof error === 'object' && 'name' in error && typeof error.name === 'string')
    return error.name;
  return 'Error';
}

function errorMessage(error: unknown): string {
  if (error && typeof error === 'object' && 'message' in error && typeof error.message === 'string')
    return error.message;
  return '';
}

export function describeIdentityError(error: unknown, flow: IdentityFlow): IdentityProblem {
  const name = errorName(error);
  const message = errorMessage(error);
  const passwordField: IdentityField =
    flow === 'change-password' || flow === 'reset' ? 'newPassword' : 'password';

  switch (name) {
    case 'NotAuthorizedException':
      if (/attempts exceeded/i.test(message)) {
        return {
          field: 'form',
          message:
            'Too many failed attempts. Wait a few minutes before trying again, or reset your password.',
          action: 'reset',
        };
      }
      if (/current status is CONFIRMED|already confirmed/i.test(message)) {
        return {
          field: 'form',
          message: 'This account is already confirmed. You can log in.',
          action: 'login',
        };
      }
      if (/disabled/i.test(message)) {
        return {
          field: 'form',
          message: 'This account is disabled. Contact support if you think this is a mistake.',
        };
      }
      if (/revoked|expired|Invalid Access Token|Invalid Refresh Token/i.test(message)) {
        return {
          field: 'form',
          message: 'Your session has ended. Log in again to continue.',
          action: 'login',
        };
      }
      if (flow === 'change-password')
        return { field: 'password', message: 'Your current password is not right.' };
      return {
        field: 'password',
        message: 'The email or password is not right. Check both and try again.',
      };
    case 'UserNotFoundException':
      return flow === 'login'
        ? {
            field: 'password',
            message: 'The email or password is not right. Check both and try again.',
          }
        : { field: 'email', message: 'No account uses this email address.' };
    case 'UserNotConfirmedException':
      return {
        field: 'form',
        message:
          'Your email address is not confirmed yet. Enter the code we emailed you, or ask for a new one.',
        action: 'confirm',
      };
    case 'UsernameExistsException':
    case 'AliasExistsException':
      if (flow === 'change-email') {
        return { field: 'email', message: 'Another account already uses this email address.' };
      }
      return {
        field: 'email',
        message:
          'An account with this email already exists. Log in, or reset the password if you forgot it.',
        action: 'login',
      };
    case 'InvalidPasswordException': {
      const reason = PASSWORD_REASONS.find(([pattern]) => pattern.test(message));
      return {
        field: passwordField,
        message: `This password is too weak. ${reason ? reason[1] : 'Use 8+ characters with upper- and lower-case letters, a digit and a symbol.'}`,
      };
    }
    case 'PasswordHistoryPolicyViolationException':
      return { field: passwordField, message: 'Choose a password you have not used before.' };
    case 'InvalidParameterException':
      if (/already confirmed/i.test(message)) {
        return {
          field: 'form',
          message: 'This account is already confirmed. You can log in.',
          action: 'login',
        };
      }
      if (/no registered\/verified email|verified/i.test(message)) {
        return {
          field: 'email',
          message:
            'This account’s email address was never confirmed, so we cannot send a reset code.',
          action: 'confirm',
        };
      }
      if (/password/i.test(message))
        return { field: passwordField, message: 'Check the password and try again.' };
      if (/code/i.test(message))
        return { field: 'code', message: 'Enter the 6-digit code from the email.' };
      return { field: 'email', message: 'Check the email address and try again.' };
    case 'CodeMismatchException':
      return {
        field: 'code',
        message: 'That code is not right. Check the most recent email we sent and try again.',
      };
    case 'ExpiredCodeException':
      return {
        field: 'code',
        message: 'That code has expired or was already used. Ask for a new one.',
        action: 'resend',
      };
    case 'TooManyFailedAttemptsException':
      return {
        field: 'code',
        message: 'Too many wrong codes. Ask for a new code, then try again.',
        action: 'resend',
      };
    case 'CodeDeliveryFailureException':
      return {
        field: 'email',
        message: 'We could not send the code to this address. Check it and try again.',
      };
    case 'LimitExceededException':
      return {
        field: 'form',
        message: 'Too many attempts for now. Wait a few minutes and try again.',
      };
    case 'TooManyRequestsException':
      return { field: 'form', message: 'Too many requests at once. Wait a moment and try again.' };
    case 'PasswordResetRequiredException':
      return {
        field: 'form',
        message: 'You need to set a new password before you can log in.',
        action: 'reset',
      };
    case 'MFAMethodNotFoundException':
    case 'SoftwareTokenMFANotFoundException':
    case 'UnsupportedChallenge':
      return {
        field: 'form',
        message:
          'This account needs a sign-in step Earshot does not support yet. Contact support for help.',
      };
    case 'InvalidLambdaResponseException':
    case 'UnexpectedLambdaException':
    case 'UserLambdaValidationException':
      return {
        field: 'form',
        message: 'The sign-in service refused this request. Try again later.',
      };
    case 'ResourceNotFoundException':
      return {
        field: 'form',
        message: 'Sign-in is not set up correctly on this server. Contact support.',
      };
    case 'InternalErrorException':
      return {
        field: 'form',
        message: 'The sign-in service had a problem on its side. Try again in a moment.',
      };
    case 'TypeError':
    case 'TimeoutError':
    case 'NetworkError':
      return {
        field: 'form',
        message: 'Cannot reach the sign-in service. Check your connection and try again.',
      };
    default:
      return { field: 'form', message: 'Something went wrong. Please try again.' };
  }
}
