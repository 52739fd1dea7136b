import { describe, expect, test } from 'vitest';
import { describeIdentityError, type IdentityFlow } from './identity-errors.ts';

// The identity error names of docs/product.md, "Error names", that a sign-in, sign-up, confirmation
// or reset flow can meet.
const SPEC_ERRORS = [
  'NotAuthorizedException',
  'UserNotFoundException',
  'UserNotConfirmedException',
  'UsernameExistsException',
  'InvalidPasswordException',
  'InvalidParameterException',
  'CodeMismatchException',
  'ExpiredCodeException',
  'CodeDeliveryFailureException',
  'LimitExceededException',
  'TooManyRequestsException',
  'TooManyFailedAttemptsException',
  'PasswordResetRequiredException',
  'PasswordHistoryPolicyViolationException',
  'AliasExistsException',
  'MFAMethodNotFoundException',
  'SoftwareTokenMFANotFoundException',
  'InvalidLambdaResponseException',
  'UnexpectedLambdaException',
  'UserLambdaValidationException',
  'InternalErrorException',
  'ResourceNotFoundException',
];
const FLOWS: IdentityFlow[] = [
  'login',
  'signup',
  'confirm',
  'resend',
  'forgot',
  'reset',
  'change-password',
  'profile',
  'change-email',
  'delete',
];

function identityError(name: string, message = '') {
  return Object.assign(new Error(message), { name });
}

describe('identity errors on screen', () => {
  test.each(SPEC_ERRORS)('%s reads as a sentence in every flow, never as its name', (name) => {
    const generic = describeIdentityError(
      identityError('SomethingUnheardOfException'),
      'login',
    ).message;
    for (const flow of FLOWS) {
      const { message } = describeIdentityError(identityError(name), flow);
      expect(message).not.toContain('Exception');
      expect(message).toMatch(/^[A-Z].+\.$/);
      expect(message, `${name} in ${flow} has its own message`).not.toBe(generic);
    }
  });

  test('a wrong password and an unknown user read the same at sign-in', () => {
    const wrong = describeIdentityError(
      identityError('NotAuthorizedException', 'Incorrect username or password.'),
      'login',
    );
    const unknown = describeIdentityError(
      identityError('UserNotFoundException', 'User does not exist.'),
      'login',
    );
    expect(wrong).toEqual(unknown);
    expect(wrong.field).toBe('password');
  });

  test('an address another account uses reads differently when changing the e-mail address', () => {
    const taken = describeIdentityError(identityError('AliasExistsException'), 'change-email');
    expect(taken).toEqual({
      field: 'email',
      message: 'Another account already uses this email address.',
    });
    expect(describeIdentityError(identityError('AliasExistsException'), 'signup').action).toBe(
      'login',
    );
  });

  test('a lockout is told apart from a wrong password and offers a reset', () => {
    const locked = describeIdentityError(
      identityError('NotAuthorizedException', 'Password attempts exceeded'),
      'login',
    );
    expect(locked.message).toMatch(/too many failed attempts/i);
    expect(locked.action).toBe('reset');
  });

  test('an unconfirmed user is offered the confirmation page', () => {
    const problem = describeIdentityError(
      identityError('UserNotConfirmedException', 'User is not confirmed.'),
      'login',
    );
    expect(problem.action).toBe('confirm');
  });

  test.each([
    ['Password did not conform with policy: Password not long enough', /8 characters/],
    ['Password did not conform with policy: Password must have uppercase characters', /upper-case/],
    ['Password did not conform with policy: Password must have lowercase characters', /lower-case/],
    ['Password did not conform with policy: Password must have numeric characters', /digit/],
    ['Password did not conform with policy: Password must have symbol characters', /symbol/],
  ])('a weak password names what is missing: %s', (message, expected) => {
    const signup = describeIdentityError(
      identityError('InvalidPasswordException', message),
      'signup',
    );
    expect(signup.field).toBe('password');
    expect(signup.message).toMatch(expected);
    expect(
      describeIdentityError(identityError('InvalidPasswordException', message), 'reset').field,
    ).toBe('newPassword');
  });

  test('network failures say to check the connection', () => {
    expect(describeIdentityError(new TypeError('Failed to fetch'), 'login').message).toMatch(
      /connection/,
    );
  });
});
