-- Spike alerts per monitor, with the owner's local day the last one went out, and threads
-- followed from a match for 7 days (issue 25, decision 0038).
CREATE TABLE "thread_follows" (
	"monitor_id" uuid NOT NULL,
	"source" text NOT NULL,
	"thread_id" text NOT NULL,
	"until" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "thread_follows_monitor_id_source_thread_id_pk" PRIMARY KEY("monitor_id","source","thread_id")
);
--> statement-breakpoint
ALTER TABLE "monitors" ADD COLUMN "spike_alerts" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "monitors" ADD COLUMN "spike_notified_day" text;--> statement-breakpoint
ALTER TABLE "thread_follows" ADD CONSTRAINT "thread_follows_monitor_id_monitors_id_fk" FOREIGN KEY ("monitor_id") REFERENCES "public"."monitors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "thread_follows_thread_idx" ON "thread_follows" USING btree ("source","thread_id");