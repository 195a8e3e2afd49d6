ALTER TABLE "order_lines" ADD COLUMN "fulfilment_status" text DEFAULT 'unfulfilled' NOT NULL;--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "fulfilment_method" text;--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "fulfilled_at" timestamp with time zone;--> statement-breakpoint
-- Lines of orders made before per-line fulfilment take their order's: a fulfilled order's lines were sent with it.
UPDATE "order_lines" SET "fulfilment_status" = 'fulfilled', "fulfilment_method" = o."fulfilment_method", "fulfilled_at" = o."fulfilled_at" FROM "orders" o WHERE o."id" = "order_lines"."order_id" AND o."fulfilment_status" = 'fulfilled';
