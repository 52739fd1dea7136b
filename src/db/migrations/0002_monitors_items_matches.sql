CREATE TABLE "items" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "items_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"source" text NOT NULL,
	"external_id" text NOT NULL,
	"kind" text NOT NULL,
	"title" text,
	"body" text NOT NULL,
	"url" text,
	"permalink" text NOT NULL,
	"author" text,
	"community" text,
	"parent_external_id" text,
	"created_at" timestamp with time zone NOT NULL,
	"fetched_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "items_kind_check" CHECK ("items"."kind" in ('post', 'comment'))
);
--> statement-breakpoint
CREATE TABLE "match_cursors" (
	"shard" text PRIMARY KEY NOT NULL,
	"last_item_id" bigint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "source_cursors" (
	"source" text PRIMARY KEY NOT NULL,
	"cursor" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "matches" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "matches_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" uuid NOT NULL,
	"monitor_id" uuid NOT NULL,
	"item_id" bigint,
	"source" text NOT NULL,
	"external_id" text NOT NULL,
	"kind" text NOT NULL,
	"title" text,
	"snippet" text NOT NULL,
	"highlights" jsonb NOT NULL,
	"url" text,
	"permalink" text NOT NULL,
	"author" text,
	"community" text,
	"item_created_at" timestamp with time zone NOT NULL,
	"matched_at" timestamp with time zone DEFAULT now() NOT NULL,
	"read_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "monitor_changes" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "monitor_changes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"monitor_id" uuid NOT NULL,
	"op" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "monitors" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"query" text NOT NULL,
	"sources" text[] DEFAULT array['hackernews', 'reddit', 'lobsters']::text[] NOT NULL,
	"paused" boolean DEFAULT false NOT NULL,
	"email_muted" boolean DEFAULT false NOT NULL,
	"match_count" integer DEFAULT 0 NOT NULL,
	"last_match_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "matches" ADD CONSTRAINT "matches_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "matches" ADD CONSTRAINT "matches_monitor_id_monitors_id_fk" FOREIGN KEY ("monitor_id") REFERENCES "public"."monitors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "matches" ADD CONSTRAINT "matches_item_id_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."items"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitors" ADD CONSTRAINT "monitors_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "items_source_external_id_idx" ON "items" USING btree ("source","external_id");--> statement-breakpoint
CREATE INDEX "items_created_at_idx" ON "items" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "matches_monitor_item_idx" ON "matches" USING btree ("monitor_id","source","external_id");--> statement-breakpoint
CREATE INDEX "matches_user_id_id_idx" ON "matches" USING btree ("user_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "matches_monitor_id_id_idx" ON "matches" USING btree ("monitor_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "matches_user_unread_idx" ON "matches" USING btree ("user_id","id" DESC NULLS LAST) WHERE "matches"."read_at" is null;--> statement-breakpoint
CREATE INDEX "monitors_user_id_created_at_idx" ON "monitors" USING btree ("user_id","created_at");--> statement-breakpoint
-- Every change to a monitor is logged and announced, so each worker's in-memory index follows
-- the table (poll monitor_changes by id, or LISTEN monitors_changed) without the API knowing them.
CREATE FUNCTION "log_monitor_change"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	changed uuid := CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END;
BEGIN
	INSERT INTO "monitor_changes" ("monitor_id", "op") VALUES (changed, left(TG_OP, 1));
	PERFORM pg_notify('monitors_changed', changed::text);
	RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "monitors_log_change" AFTER INSERT OR DELETE OR UPDATE OF "query", "sources", "paused" ON "monitors"
	FOR EACH ROW EXECUTE FUNCTION "log_monitor_change"();
