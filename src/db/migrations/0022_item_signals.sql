-- An item's signals (issue 24, docs/decisions/0035-item-signals.md): its intents, its sentiment
-- and its language, computed once by the pipeline when it stores the item and copied onto each
-- match. Items and matches stored before this have none (empty intents, null sentiment and
-- language): the models are not run again over old rows. A user's correction of a match's
-- signals is kept on the match, flagged `signals_corrected`.
ALTER TABLE "items" ADD COLUMN "intents" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "items" ADD COLUMN "sentiment" text;--> statement-breakpoint
ALTER TABLE "items" ADD COLUMN "language" text;--> statement-breakpoint
ALTER TABLE "matches" ADD COLUMN "intents" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "matches" ADD COLUMN "sentiment" text;--> statement-breakpoint
ALTER TABLE "matches" ADD COLUMN "language" text;--> statement-breakpoint
ALTER TABLE "matches" ADD COLUMN "signals_corrected" boolean DEFAULT false NOT NULL;
