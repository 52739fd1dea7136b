-- A monitor that watches every site stores no site at all, so that it also watches the sites
-- added later (decision "sources as data"). Monitors that named all three sites of the time are
-- rewritten to that; the trigger of migration 0002 logs the change for the workers.
ALTER TABLE "monitors" ALTER COLUMN "sources" SET DEFAULT '{}'::text[];
--> statement-breakpoint
UPDATE "monitors" SET "sources" = '{}'::text[]
  WHERE "sources" @> ARRAY['hackernews', 'reddit', 'lobsters']::text[];
