import { z } from 'zod';

/** Wire contracts of a monitor's webhook (docs/decisions/0016-webhooks.md). */

export const WEBHOOK_KIND_NAMES = ['slack', 'discord', 'json'] as const;
export const webhookKindSchema = z.enum(WEBHOOK_KIND_NAMES);
export type WebhookKindName = z.infer<typeof webhookKindSchema>;

export const WEBHOOK_URL_MAX_LENGTH = 2000;

/** `webhook` of PATCH /api/monitors/:id: set (or replace) the monitor's one webhook, or null to remove it. */
export const setWebhookBodySchema = z
  .strictObject({
    kind: webhookKindSchema,
    url: z
      .string({ error: 'give the webhook’s https:// address' })
      .trim()
      .min(1, 'give the webhook’s https:// address')
      .max(WEBHOOK_URL_MAX_LENGTH, `must be at most ${WEBHOOK_URL_MAX_LENGTH} characters`),
  })
  .nullable();
export type SetWebhookBody = z.infer<typeof setWebhookBodySchema>;

/** A monitor's webhook as its owner sees it (the secret verifies `json` bodies). */
export const monitorWebhookSchema = z.object({
  kind: webhookKindSchema,
  url: z.string(),
  /** Signs `json` bodies: `Earshot-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`. */
  secret: z.string(),
  /** True after repeated failures; saving the webhook again resumes it. */
  paused: z.boolean(),
  /** Why it was paused, for the Monitors page; null when active. */
  pausedReason: z.string().nullable(),
});
export type MonitorWebhook = z.infer<typeof monitorWebhookSchema>;

/** The answer of POST /api/monitors/:id/webhook/test. */
export const webhookTestResultSchema = z.object({
  delivered: z.boolean(),
  /** The HTTP status the webhook answered; null when it could not be reached. */
  status: z.number().int().nullable(),
  /** Why it failed, for people; null when delivered. */
  error: z.string().nullable(),
});
export type WebhookTestResult = z.infer<typeof webhookTestResultSchema>;
