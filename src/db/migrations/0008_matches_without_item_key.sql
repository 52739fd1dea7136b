ALTER TABLE "matches" DROP CONSTRAINT "matches_user_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "matches" DROP CONSTRAINT "matches_item_id_items_id_fk";
--> statement-breakpoint
DROP INDEX "matches_item_id_idx";--> statement-breakpoint
ALTER TABLE "matches" DROP COLUMN "item_id";