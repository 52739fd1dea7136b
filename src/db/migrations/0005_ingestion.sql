CREATE TABLE "source_health" (
	"source" text PRIMARY KEY NOT NULL,
	"state" text NOT NULL,
	"last_success_at" timestamp with time zone,
	"last_error_at" timestamp with time zone,
	"last_error" text,
	"items_per_minute" integer DEFAULT 0 NOT NULL,
	"behind_seconds" integer,
	"skipped" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"leader" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "matches_item_id_idx" ON "matches" USING btree ("item_id");