import type { Operation } from './context.ts';
import { changePassword } from './operations/change-password.ts';
import { confirmForgotPassword } from './operations/confirm-forgot-password.ts';
import { confirmSignUp } from './operations/confirm-sign-up.ts';
import { deleteUser } from './operations/delete-user.ts';
import { forgotPassword } from './operations/forgot-password.ts';
import { getUser } from './operations/get-user.ts';
import { getUserAttributeVerificationCode } from './operations/get-user-attribute-verification-code.ts';
import { globalSignOut } from './operations/global-sign-out.ts';
import { initiateAuth } from './operations/initiate-auth.ts';
import { resendConfirmationCode } from './operations/resend-confirmation-code.ts';
import { revokeToken } from './operations/revoke-token.ts';
import { signUp } from './operations/sign-up.ts';
import { updateUserAttributes } from './operations/update-user-attributes.ts';
import { verifyUserAttribute } from './operations/verify-user-attribute.ts';

/** The operations the service answers, by the name after `AWSCognitoIdentityProviderService.`. */
export const OPERATIONS: Record<string, Operation> = {
  InitiateAuth: initiateAuth,
  SignUp: signUp,
  ConfirmSignUp: confirmSignUp,
  ResendConfirmationCode: resendConfirmationCode,
  ForgotPassword: forgotPassword,
  ConfirmForgotPassword: confirmForgotPassword,
  GetUser: getUser,
  UpdateUserAttributes: updateUserAttributes,
  GetUserAttributeVerificationCode: getUserAttributeVerificationCode,
  VerifyUserAttribute: verifyUserAttribute,
  ChangePassword: changePassword,
  GlobalSignOut: globalSignOut,
  RevokeToken: revokeToken,
  DeleteUser: deleteUser,
};
