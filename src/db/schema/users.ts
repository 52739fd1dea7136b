import { sql } from 'drizzle-orm';
import { check, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

import { EMAIL_ALERT_MODES, type QuietHours } from '../../shared/user.ts';

export type { EmailAlertMode } from '../../shared/user.ts';

/**
 * The product's own record of a person. `id` is the identity token's `sub`, whichever identity
 * provider issued it (the embedded one or a real Cognito pool).
 */
export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey(),
    email: text('email').notNull(),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    timezone: text('timezone').notNull().default('UTC'),
    emailAlerts: text('email_alerts', { enum: EMAIL_ALERT_MODES }).notNull().default('instant'),
    /** `{ start, end }` on the user's wall clock, or null (decision 0038). */
    quietHours: jsonb('quiet_hours').$type<QuietHours>(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [
    check(
      'users_email_alerts_check',
      sql`${table.emailAlerts} in ('instant', 'hourly', 'daily', 'off')`,
    ),
  ],
);

export type UserRow = typeof users.$inferSelect;
