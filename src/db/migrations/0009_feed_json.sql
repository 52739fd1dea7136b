ALTER TABLE "matches" ADD COLUMN "feed_json" text DEFAULT '' NOT NULL;
--> statement-breakpoint
-- The match as the feed sends it, less its id and read flag: toMatch's keys in its order, the
-- instants as toISOString writes them (UTC, milliseconds, "Z"). row_to_json writes no spaces
-- between keys and values (json_build_object writes " : " and ", ").
CREATE FUNCTION "match_feed_json"(m "matches") RETURNS text LANGUAGE sql STABLE AS $$
  SELECT row_to_json(f)::text FROM (SELECT
    m.monitor_id AS "monitorId", m.source AS "source", m.kind AS "kind", m.title AS "title",
    m.snippet AS "snippet", m.highlights AS "highlights", m.url AS "url",
    m.permalink AS "permalink", m.author AS "author", m.community AS "community",
    to_char(m.item_created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "itemCreatedAt",
    to_char(m.matched_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "matchedAt"
  ) AS f
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
