-- Calm delivery (issue 25). The thread an item belongs to (the external id of its post; a post
-- is its own thread), on items and on matches, so the readers group a monitor's matches per
-- conversation; posts stored before this get their own id, older comments stay unknown (null)
-- and are grouped alone. The daily cap holds matches over for the next message instead of
-- dropping them: how many it held is kept per user (email) and per webhook. A rhythm per
-- monitor (`delivery`), the batches of rhythms other than the user's, and quiet hours per user
-- (decision 0038). Threads a monitor's mute links silenced.
CREATE TABLE "monitor_thread_mutes" (
	"monitor_id" uuid NOT NULL,
	"source" text NOT NULL,
	"thread_id" text NOT NULL,
	"title" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "monitor_thread_mutes_monitor_id_source_thread_id_pk" PRIMARY KEY("monitor_id","source","thread_id")
);--> statement-breakpoint
ALTER TABLE "monitor_thread_mutes" ADD CONSTRAINT "monitor_thread_mutes_monitor_id_monitors_id_fk" FOREIGN KEY ("monitor_id") REFERENCES "public"."monitors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "items" ADD COLUMN "thread_id" text;--> statement-breakpoint
ALTER TABLE "matches" ADD COLUMN "thread_id" text;--> statement-breakpoint
ALTER TABLE "email_delivery_state" ADD COLUMN "held_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "email_delivery_state" ADD COLUMN "batches" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "monitor_webhooks" ADD COLUMN "held_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "monitors" ADD COLUMN "delivery" text DEFAULT 'default' NOT NULL;--> statement-breakpoint
ALTER TABLE "monitors" ADD CONSTRAINT "monitors_delivery_check" CHECK ("delivery" in ('default', 'instant', 'hourly', 'daily', 'weekly', 'feed'));--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "quiet_hours" jsonb;--> statement-breakpoint
UPDATE "items" SET "thread_id" = "external_id" WHERE "kind" = 'post';--> statement-breakpoint
UPDATE "matches" SET "thread_id" = "external_id" WHERE "kind" = 'post';
