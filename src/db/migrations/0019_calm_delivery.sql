-- Calm delivery (issue 25): the thread an item belongs to (the external id of its post; a post
-- is its own thread), on items and on matches, so the readers group a monitor's matches per
-- conversation. Posts stored before this get their own id; older comments stay unknown (null)
-- and are grouped alone. The daily cap holds matches over for the next message instead of
-- dropping them: how many it held is kept per user (email) and per webhook.
ALTER TABLE "items" ADD COLUMN "thread_id" text;--> statement-breakpoint
ALTER TABLE "matches" ADD COLUMN "thread_id" text;--> statement-breakpoint
ALTER TABLE "email_delivery_state" ADD COLUMN "held_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "monitor_webhooks" ADD COLUMN "held_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "items" SET "thread_id" = "external_id" WHERE "kind" = 'post';--> statement-breakpoint
UPDATE "matches" SET "thread_id" = "external_id" WHERE "kind" = 'post';
