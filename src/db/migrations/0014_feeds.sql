CREATE TABLE "feed_subscriptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"feed_id" bigint NOT NULL,
	"name" text NOT NULL,
	"paused_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "feeds" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "feeds_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"url" text NOT NULL,
	"kind" text NOT NULL,
	"title" text,
	"etag" text,
	"last_modified" text,
	"interval_seconds" integer DEFAULT 300 NOT NULL,
	"next_fetch_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lease_until" timestamp with time zone,
	"last_fetch_at" timestamp with time zone,
	"last_success_at" timestamp with time zone,
	"last_change_at" timestamp with time zone,
	"last_error" text,
	"last_error_at" timestamp with time zone,
	"items_seen" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "feeds_kind_check" CHECK ("feeds"."kind" in ('rss', 'atom', 'json', 'discourse'))
);
--> statement-breakpoint
ALTER TABLE "items" ADD COLUMN "feed_id" bigint;--> statement-breakpoint
ALTER TABLE "feed_subscriptions" ADD CONSTRAINT "feed_subscriptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feed_subscriptions" ADD CONSTRAINT "feed_subscriptions_feed_id_feeds_id_fk" FOREIGN KEY ("feed_id") REFERENCES "public"."feeds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "feed_subscriptions_user_feed_idx" ON "feed_subscriptions" USING btree ("user_id","feed_id");--> statement-breakpoint
CREATE INDEX "feed_subscriptions_feed_id_idx" ON "feed_subscriptions" USING btree ("feed_id");--> statement-breakpoint
CREATE UNIQUE INDEX "feeds_url_idx" ON "feeds" USING btree ("url");--> statement-breakpoint
CREATE INDEX "feeds_next_fetch_at_idx" ON "feeds" USING btree ("next_fetch_at");--> statement-breakpoint
ALTER TABLE "items" ADD CONSTRAINT "items_feed_id_feeds_id_fk" FOREIGN KEY ("feed_id") REFERENCES "public"."feeds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "items_feed_id_idx" ON "items" USING btree ("feed_id") WHERE "items"."feed_id" is not null;