-- An item's signals are computed when something first reads them, not when it is stored
-- (docs/decisions/0043-lazy-item-signals.md): a null `intents` means "not computed yet", and
-- the item's `sentiment` and `language` then say nothing either. Rows stored before this keep
-- what they have ('{}' on rows older than migration 0022 reads as "none").
ALTER TABLE "items" ALTER COLUMN "intents" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "items" ALTER COLUMN "intents" DROP NOT NULL;
