ALTER TABLE "source_health" ADD COLUMN "note" text;--> statement-breakpoint
ALTER TABLE "source_health" ADD COLUMN "queue" jsonb;
