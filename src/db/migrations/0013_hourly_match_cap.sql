ALTER TABLE "monitors" ADD COLUMN "hour_started_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "monitors" ADD COLUMN "hour_matches" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "monitors" ADD COLUMN "hour_dropped" integer DEFAULT 0 NOT NULL;