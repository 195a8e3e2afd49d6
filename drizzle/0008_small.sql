ALTER TABLE "catalog_items" ADD COLUMN "new_until" timestamp with time zone;--> statement-breakpoint
-- Hand-written backfill (decision 107): a shop phone stored in a South African local or 27… form is
-- stored in international form from now on (+27 72 481 3396), as the settings form now saves it.
-- Anything else stays as it was; the site still shows it, and the next save asks for a valid number.
UPDATE "app_settings"
SET "value" = regexp_replace(
  regexp_replace(regexp_replace("value", '[^0-9]', '', 'g'), '^(0027|27)?0?', ''),
  '^([0-9]{2})([0-9]{3})([0-9]{4})$', '+27 \1 \2 \3')
WHERE "key" IN ('site.phone', 'site.whatsapp')
  AND "value" ~ '^\+?[0-9 ()-]+$'
  AND regexp_replace("value", '[^0-9]', '', 'g') ~ '^((0027|27)0?|0)[1-8][0-9]{8}$';
