-- What full-text search sees: lower-case ASCII words, accents folded as the matcher folds them
-- (src/db/search-text.ts keeps the same fold in TypeScript; a test compares the two).
CREATE OR REPLACE FUNCTION earshot_search_text(input text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN regexp_replace(
    replace(replace(replace(replace(replace(translate(input, 'ÀÁÂÃÄÅÇÈÉÊËÌÍÎÏÑÒÓÔÕÖÙÚÛÜÝàáâãäåçèéêëìíîïñòóôõöùúûüýÿĀāĂăĄąĆćĈĉĊċČčĎďĒēĔĕĖėĘęĚěĜĝĞğĠġĢģĤĥĨĩĪīĬĭĮįİĴĵĶķĹĺĻļĽľŃńŅņŇňŌōŎŏŐőŔŕŖŗŘřŚśŜŝŞşŠšŢţŤťŨũŪūŬŭŮůŰűŲųŴŵŶŷŸŹźŻżŽžØøŁłĐđABCDEFGHIJKLMNOPQRSTUVWXYZ', 'aaaaaaceeeeiiiinooooouuuuyaaaaaaceeeeiiiinooooouuuuyyaaaaaaccccccccddeeeeeeeeeegggggggghhiiiiiiiiijjkkllllllnnnnnnoooooorrrrrrssssssssttttuuuuuuuuuuuuwwyyyzzzzzzoollddabcdefghijklmnopqrstuvwxyz'), 'ß', 'ss'), 'æ', 'ae'), 'Æ', 'ae'), 'œ', 'oe'), 'Œ', 'oe'),
    '[^0-9a-z]+', ' ', 'g');--> statement-breakpoint
ALTER TABLE "matches" ADD COLUMN "search" "tsvector" GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, earshot_search_text(coalesce(title, '') || ' ' || snippet || ' ' || coalesce(author, '') || ' ' || coalesce(community, '')))) STORED;--> statement-breakpoint
CREATE INDEX "items_search_idx" ON "items" USING gin (to_tsvector('simple'::regconfig, earshot_search_text(coalesce(title, '') || ' ' || body || ' ' || coalesce(url, ''))));--> statement-breakpoint
CREATE INDEX "matches_search_idx" ON "matches" USING gin ("search");--> statement-breakpoint
CREATE INDEX "matches_user_matched_at_idx" ON "matches" USING btree ("user_id","matched_at","monitor_id");