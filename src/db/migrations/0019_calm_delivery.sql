-- Calm delivery (issue 25): the thread an item belongs to (the external id of its post; a post
-- is its own thread), on items and on matches, so the readers group a monitor's matches per
-- conversation. Posts stored before this get their own id; older comments stay unknown (null)
-- and are grouped alone.
ALTER TABLE "items" ADD COLUMN "thread_id" text;--> statement-breakpoint
ALTER TABLE "matches" ADD COLUMN "thread_id" text;--> statement-breakpoint
UPDATE "items" SET "thread_id" = "external_id" WHERE "kind" = 'post';--> statement-breakpoint
UPDATE "matches" SET "thread_id" = "external_id" WHERE "kind" = 'post';
