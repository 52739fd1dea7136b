-- Threads a monitor no longer alerts on, muted from an alert email's link (issue 25, decision
-- 0038): matches of the monitor in such a thread are not stored; listed on the monitor with an undo.
CREATE TABLE "monitor_thread_mutes" (
	"monitor_id" uuid NOT NULL,
	"source" text NOT NULL,
	"thread_id" text NOT NULL,
	"title" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "monitor_thread_mutes_monitor_id_source_thread_id_pk" PRIMARY KEY("monitor_id","source","thread_id")
);
--> statement-breakpoint
ALTER TABLE "monitor_thread_mutes" ADD CONSTRAINT "monitor_thread_mutes_monitor_id_monitors_id_fk" FOREIGN KEY ("monitor_id") REFERENCES "public"."monitors"("id") ON DELETE cascade ON UPDATE no action;