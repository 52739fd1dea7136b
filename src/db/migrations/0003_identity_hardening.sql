ALTER TABLE "idp_codes" DROP CONSTRAINT "idp_codes_purpose_check";--> statement-breakpoint
ALTER TABLE "idp_users" ADD COLUMN "pending_email" text;--> statement-breakpoint
ALTER TABLE "idp_codes" ADD CONSTRAINT "idp_codes_purpose_check" CHECK ("idp_codes"."purpose" in ('signup', 'reset', 'email'));