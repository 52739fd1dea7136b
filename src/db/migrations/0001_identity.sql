CREATE TABLE "idp_clients" (
	"client_id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"secret" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "idp_codes" (
	"email" text NOT NULL,
	"purpose" text NOT NULL,
	"sub" uuid,
	"code_hash" text NOT NULL,
	"failed_attempts" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "idp_codes_email_purpose_pk" PRIMARY KEY("email","purpose"),
	CONSTRAINT "idp_codes_purpose_check" CHECK ("idp_codes"."purpose" in ('signup', 'reset'))
);
--> statement-breakpoint
CREATE TABLE "idp_pool" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"user_pool_id" text NOT NULL,
	"web_client_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idp_pool_single_row" CHECK ("idp_pool"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "idp_rate_counters" (
	"key" text PRIMARY KEY NOT NULL,
	"window_started_at" timestamp with time zone NOT NULL,
	"count" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "idp_sessions" (
	"origin_jti" uuid PRIMARY KEY NOT NULL,
	"sub" uuid NOT NULL,
	"client_id" text NOT NULL,
	"refresh_token_hash" text NOT NULL,
	"event_id" uuid NOT NULL,
	"auth_time" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "idp_sessions_refresh_token_hash_unique" UNIQUE("refresh_token_hash")
);
--> statement-breakpoint
CREATE TABLE "idp_sign_in_failures" (
	"key" text PRIMARY KEY NOT NULL,
	"failures" integer NOT NULL,
	"last_failure_at" timestamp with time zone NOT NULL,
	"locked_until" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "idp_signing_keys" (
	"kid" text PRIMARY KEY NOT NULL,
	"token_use" text NOT NULL,
	"public_jwk" jsonb NOT NULL,
	"private_jwk" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"retired_at" timestamp with time zone,
	CONSTRAINT "idp_signing_keys_token_use_check" CHECK ("idp_signing_keys"."token_use" in ('access', 'id'))
);
--> statement-breakpoint
CREATE TABLE "idp_users" (
	"sub" uuid PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"password_hash" text NOT NULL,
	"status" text NOT NULL,
	"email_verified" boolean DEFAULT false NOT NULL,
	"given_name" text,
	"family_name" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "idp_users_email_unique" UNIQUE("email"),
	CONSTRAINT "idp_users_status_check" CHECK ("idp_users"."status" in ('UNCONFIRMED', 'CONFIRMED'))
);
--> statement-breakpoint
ALTER TABLE "idp_codes" ADD CONSTRAINT "idp_codes_sub_idp_users_sub_fk" FOREIGN KEY ("sub") REFERENCES "public"."idp_users"("sub") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "idp_sessions" ADD CONSTRAINT "idp_sessions_sub_idp_users_sub_fk" FOREIGN KEY ("sub") REFERENCES "public"."idp_users"("sub") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "idp_sessions" ADD CONSTRAINT "idp_sessions_client_id_idp_clients_client_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."idp_clients"("client_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "idp_codes_sub_idx" ON "idp_codes" USING btree ("sub");--> statement-breakpoint
CREATE INDEX "idp_sessions_sub_idx" ON "idp_sessions" USING btree ("sub");