import { z } from 'zod';

/**
 * The identity provider's default password policy (docs/product.md, "Password policy"), checked in
 * the browser first so most mistakes never leave the page: 8+ characters, upper, lower, digit, symbol.
 */
export const newPasswordSchema = z
  .string()
  .min(8, 'Use at least 8 characters.')
  .max(256, 'Use at most 256 characters.')
  .regex(/[A-Z]/, 'Add an upper-case letter (A–Z).')
  .regex(/[a-z]/, 'Add a lower-case letter (a–z).')
  .regex(/[0-9]/, 'Add a digit (0–9).')
  .regex(/[\^$*.[\]{}()?"!@#%&/\\,><':;|_~`=+\- ]/, 'Add a symbol such as ! ? # or %.');

export const NEW_PASSWORD_HINT =
  'At least 8 characters, with upper- and lower-case letters, a digit and a symbol.';

/** For a schema with `newPassword` and `repeat`: `.refine(...repeatMatches)`. */
export const repeatMatches: [
  (value: { newPassword: string; repeat: string }) => boolean,
  { path: string[]; message: string },
] = [
  (value) => value.newPassword === value.repeat,
  { path: ['repeat'], message: 'The two passwords are not the same.' },
];
