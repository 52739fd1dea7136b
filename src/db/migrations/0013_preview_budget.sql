-- Issue 20 (docs/decisions/XXXX-preview-budget.md). The preview reads the newest items in windows
-- ordered by (created_at, id): an index in that order lets each window be a short index scan.
-- Each monitor counts its matches of the current clock hour, and those left out beyond
-- MONITOR_MATCHES_PER_HOUR.
DROP INDEX "items_created_at_idx";--> statement-breakpoint
ALTER TABLE "monitors" ADD COLUMN "hour_started_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "monitors" ADD COLUMN "hour_matches" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "monitors" ADD COLUMN "hour_dropped" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "items_created_at_id_idx" ON "items" USING btree ("created_at","id");