ALTER TABLE "check_ins" ADD COLUMN "device_clock_skew_ms" bigint;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "voided_at" timestamp with time zone;--> statement-breakpoint
-- Hand-written backfill (decision 105): a ticket refunded before this column existed takes the time
-- its order's history says the tickets were cancelled.
UPDATE "tickets" t SET "voided_at" = (
  SELECT max(e."at") FROM "order_events" e WHERE e."order_id" = t."order_id" AND e."kind" = 'tickets' AND e."detail" ? 'voided'
) WHERE t."voided";--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "short_code" text;--> statement-breakpoint
-- Hand-written backfill: every existing ticket gets an eight-character door code from the alphabet
-- without 0/O and 1/I/L (app/tickets/short-code.ts), drawn again where one repeats within its event.
CREATE OR REPLACE FUNCTION pg_temp.door_short_code() RETURNS text LANGUAGE sql VOLATILE AS $$
  SELECT string_agg(substr('23456789ABCDEFGHJKMNPQRSTUVWXYZ', 1 + floor(random() * 31)::int, 1), '') FROM generate_series(1, 8)
$$;--> statement-breakpoint
DO $$
BEGIN
  UPDATE "tickets" SET "short_code" = pg_temp.door_short_code() WHERE "short_code" IS NULL;
  LOOP
    UPDATE "tickets" SET "short_code" = pg_temp.door_short_code()
    WHERE "id" IN (
      SELECT "id" FROM (SELECT "id", row_number() OVER (PARTITION BY "event_id", "short_code" ORDER BY "id") AS n FROM "tickets") d WHERE d.n > 1
    );
    EXIT WHEN NOT FOUND;
  END LOOP;
END $$;--> statement-breakpoint
ALTER TABLE "tickets" ALTER COLUMN "short_code" SET NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "tickets_event_short_code_idx" ON "tickets" USING btree ("event_id","short_code");
