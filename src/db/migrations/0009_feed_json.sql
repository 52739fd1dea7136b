ALTER TABLE "matches" ADD COLUMN "feed_json" text DEFAULT '' NOT NULL;
--> statement-breakpoint
-- The match as the feed sends it, less its id and read flag: toMatch's keys in its order, the
-- instants as toISOString writes them (UTC, milliseconds, "Z").
CREATE FUNCTION "match_feed_json"(m "matches") RETURNS text LANGUAGE sql STABLE AS $$
  SELECT json_build_object(
    'monitorId', m.monitor_id, 'source', m.source, 'kind', m.kind, 'title', m.title,
    'snippet', m.snippet, 'highlights', m.highlights, 'url', m.url, 'permalink', m.permalink,
    'author', m.author, 'community', m.community,
    'itemCreatedAt', to_char(m.item_created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'matchedAt', to_char(m.matched_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
  )::text
$$;
--> statement-breakpoint
CREATE FUNCTION "matches_feed_json"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.feed_json := match_feed_json(NEW);
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "matches_feed_json" BEFORE INSERT ON "matches"
  FOR EACH ROW EXECUTE FUNCTION "matches_feed_json"();
--> statement-breakpoint
UPDATE "matches" SET "feed_json" = match_feed_json("matches");
