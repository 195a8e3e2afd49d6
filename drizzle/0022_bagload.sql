ALTER TABLE "orders" ADD COLUMN "from_bag" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "orders_from_bag_created_idx" ON "orders" USING btree ("created_at") WHERE "orders"."from_bag";--> statement-breakpoint
-- Hand-written backfill (issue 39): orders a bag made before the column. Every other checkout makes one line
-- (of one or more seats), so an order of several lines came from a bag; a bag of one line cannot be told
-- apart and stays false.
UPDATE "orders" SET "from_bag" = true
WHERE "id" IN (SELECT "order_id" FROM "order_lines" GROUP BY "order_id" HAVING count(*) > 1);
