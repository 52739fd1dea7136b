-- The folded search text is written by the application with each row (search-text.ts,
-- searchDocument); folding in SQL cost more than the rest of storing a match.
ALTER TABLE "matches" ALTER COLUMN "search" DROP EXPRESSION;--> statement-breakpoint
ALTER TABLE "matches" ALTER COLUMN "search" SET NOT NULL;--> statement-breakpoint
DROP INDEX "items_search_idx";--> statement-breakpoint
ALTER TABLE "items" ADD COLUMN "search" "tsvector";--> statement-breakpoint
UPDATE "items" SET "search" = array_to_tsvector(array(select distinct word from regexp_split_to_table(earshot_search_text(coalesce(title, '') || ' ' || body || ' ' || coalesce(url, '')), ' ') as word where word <> '' and length(word) <= 2047));--> statement-breakpoint
UPDATE "matches" SET "search" = array_to_tsvector(array(select distinct word from regexp_split_to_table(earshot_search_text(coalesce(title, '') || ' ' || snippet || ' ' || coalesce(author, '') || ' ' || coalesce(community, '')), ' ') as word where word <> '' and length(word) <= 2047));--> statement-breakpoint
ALTER TABLE "items" ALTER COLUMN "search" SET NOT NULL;--> statement-breakpoint
CREATE INDEX "items_search_idx" ON "items" USING gin ("search");
