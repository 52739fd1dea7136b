import { z } from 'zod';
import { newPasswordSchema, repeatMatches } from '../../lib/password-policy.ts';

/** Client-side checks that mirror the identity provider's, so most mistakes never leave the page. */
export const emailSchema = z
  .string()
  .trim()
  .min(1, 'Enter your email address.')
  .max(254, 'This email address is too long.')
  .email('Enter a valid email address, like name@example.com.');

export const codeSchema = z
  .string()
  .trim()
  .regex(/^\d{6}$/, 'Enter the 6-digit code from the email.');

export const loginSchema = z.object({
  email: emailSchema,
  password: z.string().min(1, 'Enter your password.'),
});

export const signupSchema = z.object({
  givenName: z
    .string()
    .trim()
    .min(1, 'Enter your first name.')
    .max(100, 'Use at most 100 characters.'),
  familyName: z.string().trim().max(100, 'Use at most 100 characters.'),
  email: emailSchema,
  password: newPasswordSchema,
});

export const confirmSchema = z.object({ email: emailSchema, code: codeSchema });

export const forgotSchema = z.object({ email: emailSchema });

export const resetSchema = z
  .object({
    email: emailSchema,
    code: codeSchema,
    newPassword: newPasswordSchema,
    repeat: z.string(),
  })
  .refine(...repeatMatches);
