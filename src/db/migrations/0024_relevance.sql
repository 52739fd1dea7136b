CREATE TABLE "relevance_models" (
	"monitor_id" uuid PRIMARY KEY NOT NULL,
	"model" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "matches" ADD COLUMN "rating" text;--> statement-breakpoint
ALTER TABLE "matches" ADD COLUMN "relevance" real;--> statement-breakpoint
ALTER TABLE "matches" ADD COLUMN "relevance_reasons" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "monitors" ADD COLUMN "relevance_threshold" real;--> statement-breakpoint
ALTER TABLE "relevance_models" ADD CONSTRAINT "relevance_models_monitor_id_monitors_id_fk" FOREIGN KEY ("monitor_id") REFERENCES "public"."monitors"("id") ON DELETE cascade ON UPDATE no action;