CREATE TABLE "delivery_outbox" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "delivery_outbox_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"channel" text NOT NULL,
	"purpose" text NOT NULL,
	"user_id" uuid NOT NULL,
	"monitor_id" uuid,
	"dedupe_key" text NOT NULL,
	"match_ids" bigint[] DEFAULT '{}' NOT NULL,
	"payload" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone NOT NULL,
	"lease_until" timestamp with time zone,
	"last_error" text,
	"created_at" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone,
	CONSTRAINT "delivery_outbox_dedupe_key_unique" UNIQUE("dedupe_key"),
	CONSTRAINT "delivery_outbox_status_check" CHECK ("delivery_outbox"."status" in ('pending', 'sent', 'failed', 'cancelled'))
);
--> statement-breakpoint
CREATE TABLE "email_delivery_state" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"pending_since" timestamp with time zone,
	"due_at" timestamp with time zone,
	"due_for" text,
	"cap_day" text,
	"cap_count" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "monitor_webhooks" (
	"monitor_id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"url" text NOT NULL,
	"secret" text NOT NULL,
	"failure_count" integer DEFAULT 0 NOT NULL,
	"paused_at" timestamp with time zone,
	"paused_reason" text,
	"pending_since" timestamp with time zone,
	"cap_day" text,
	"cap_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "monitor_webhooks_kind_check" CHECK ("monitor_webhooks"."kind" in ('slack', 'discord', 'json'))
);
--> statement-breakpoint
CREATE TABLE "server_secrets" (
	"name" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- Matches stored before delivery existed are not delivered (false for them), new ones are (true).
ALTER TABLE "matches" ADD COLUMN "email_pending" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "matches" ADD COLUMN "webhook_pending" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "matches" ALTER COLUMN "email_pending" SET DEFAULT true;--> statement-breakpoint
ALTER TABLE "matches" ALTER COLUMN "webhook_pending" SET DEFAULT true;--> statement-breakpoint
ALTER TABLE "delivery_outbox" ADD CONSTRAINT "delivery_outbox_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delivery_outbox" ADD CONSTRAINT "delivery_outbox_monitor_id_monitors_id_fk" FOREIGN KEY ("monitor_id") REFERENCES "public"."monitors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_delivery_state" ADD CONSTRAINT "email_delivery_state_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitor_webhooks" ADD CONSTRAINT "monitor_webhooks_monitor_id_monitors_id_fk" FOREIGN KEY ("monitor_id") REFERENCES "public"."monitors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitor_webhooks" ADD CONSTRAINT "monitor_webhooks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "delivery_outbox_due_idx" ON "delivery_outbox" USING btree ("next_attempt_at") WHERE "delivery_outbox"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "delivery_outbox_user_id_idx" ON "delivery_outbox" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "monitor_webhooks_user_id_idx" ON "monitor_webhooks" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "matches_email_pending_idx" ON "matches" USING btree ("user_id","id") WHERE "matches"."email_pending";--> statement-breakpoint
CREATE INDEX "matches_webhook_pending_idx" ON "matches" USING btree ("monitor_id","id") WHERE "matches"."webhook_pending";