CREATE TABLE "alert_feeds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"monitor_id" uuid,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "alert_feeds_token_hash_unique" UNIQUE("token_hash"),
	CONSTRAINT "alert_feeds_user_id_monitor_id_key" UNIQUE NULLS NOT DISTINCT("user_id","monitor_id")
);
--> statement-breakpoint
ALTER TABLE "alert_feeds" ADD CONSTRAINT "alert_feeds_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_feeds" ADD CONSTRAINT "alert_feeds_monitor_id_monitors_id_fk" FOREIGN KEY ("monitor_id") REFERENCES "public"."monitors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alert_feeds_monitor_id_idx" ON "alert_feeds" USING btree ("monitor_id");--> statement-breakpoint
ALTER TABLE "delivery_outbox" ADD COLUMN "last_attempt_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "delivery_outbox" ADD COLUMN "last_response_status" integer;--> statement-breakpoint
ALTER TABLE "delivery_outbox" ADD COLUMN "last_duration_ms" integer;--> statement-breakpoint
CREATE INDEX "delivery_outbox_monitor_id_channel_id_idx" ON "delivery_outbox" USING btree ("monitor_id","channel","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "delivery_outbox_user_id_channel_id_idx" ON "delivery_outbox" USING btree ("user_id","channel","id" DESC NULLS LAST);
