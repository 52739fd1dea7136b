import { z } from 'zod';
import { isPlainText, PLAIN_TEXT_MESSAGE } from './plain-text.ts';

/**
 * Wire contracts of /api/user, shared by the server and the web app (no server imports here).
 * The record is the product's own view of a person; `id` is the identity token's `sub`.
 */

export const EMAIL_ALERT_MODES = ['instant', 'hourly', 'daily', 'off'] as const;
export const emailAlertModeSchema = z.enum(EMAIL_ALERT_MODES);
export type EmailAlertMode = z.infer<typeof emailAlertModeSchema>;

/** A wall-clock time, `HH:MM` (24 h). */
const clockTime = z
  .string()
  .regex(/^([01][0-9]|2[0-3]):[0-5][0-9]$/, 'must be a time such as 22:00 or 07:30');

/**
 * Quiet hours (docs/product.md, "Delivery"): from `start` to `end` on the user's wall clock (an
 * overnight span when `end` is earlier), instant and hourly alert emails wait and go out as one
 * email when they end. Null: none.
 */
export const quietHoursSchema = z
  .strictObject({ start: clockTime, end: clockTime })
  .refine((hours) => hours.start !== hours.end, 'start and end must differ')
  .nullable();
export type QuietHours = z.infer<typeof quietHoursSchema>;

/** An IANA time zone the runtime knows (`Europe/Paris`, `UTC`); aliases such as `US/Eastern` too. */
export function isTimeZone(value: string): boolean {
  if (value.length === 0 || value.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

const personName = z
  .string()
  .trim()
  .max(100, 'must be at most 100 characters')
  .refine(isPlainText, PLAIN_TEXT_MESSAGE);

export const userRecordSchema = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  timezone: z.string(),
  emailAlerts: emailAlertModeSchema,
  quietHours: quietHoursSchema,
  /** ISO 8601. */
  createdAt: z.string(),
});
export type UserRecord = z.infer<typeof userRecordSchema>;

/** PUT /api/user: any subset of the editable fields; at least one. */
export const updateUserBodySchema = z
  .object({
    firstName: personName.optional(),
    lastName: personName.optional(),
    timezone: z
      .string()
      .trim()
      .refine(isTimeZone, 'must be an IANA time zone such as Europe/Paris or UTC')
      .optional(),
    emailAlerts: emailAlertModeSchema.optional(),
    quietHours: quietHoursSchema.optional(),
  })
  .strict()
  .refine((body) => Object.keys(body).length > 0, 'must change at least one field');
export type UpdateUserBody = z.infer<typeof updateUserBodySchema>;

/** POST /api/user: an empty object; the record is made from the signed-in identity. */
export const createUserBodySchema = z.object({}).strict();
