-- What an alert shows of its context (issue 20): a comment's thread title, on items (resolved
-- from the parent when the site does not name it) and on matches; where a monitor's terms hit
-- (title, body, URL) and the hits in the title. Matches stored before this have no hit fields
-- and no title hits: the matcher's hits were not kept.
ALTER TABLE "items" ADD COLUMN "thread_title" text;--> statement-breakpoint
ALTER TABLE "matches" ADD COLUMN "thread_title" text;--> statement-breakpoint
ALTER TABLE "matches" ADD COLUMN "title_highlights" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "matches" ADD COLUMN "hit_fields" jsonb DEFAULT '[]'::jsonb NOT NULL;