CREATE TABLE "product_variants" (
	"id" serial PRIMARY KEY NOT NULL,
	"catalog_item_id" integer NOT NULL,
	"value1" text NOT NULL,
	"value2" text DEFAULT '' NOT NULL,
	"stock_quantity" integer,
	"price_cents" integer,
	"image" text,
	"enabled" boolean DEFAULT true NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "catalog_items" ADD COLUMN "option_names" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "variant_id" integer;--> statement-breakpoint
ALTER TABLE "bag_lines" ADD COLUMN "variant_id" integer;--> statement-breakpoint
ALTER TABLE "product_variants" ADD CONSTRAINT "product_variants_catalog_item_id_catalog_items_id_fk" FOREIGN KEY ("catalog_item_id") REFERENCES "public"."catalog_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "product_variants_values_idx" ON "product_variants" USING btree ("catalog_item_id","value1","value2");--> statement-breakpoint
CREATE INDEX "product_variants_item_idx" ON "product_variants" USING btree ("catalog_item_id","position");--> statement-breakpoint
CREATE INDEX "product_variants_enabled_idx" ON "product_variants" USING btree ("catalog_item_id") WHERE "product_variants"."enabled";--> statement-breakpoint
ALTER TABLE "order_lines" ADD CONSTRAINT "order_lines_variant_id_product_variants_id_fk" FOREIGN KEY ("variant_id") REFERENCES "public"."product_variants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bag_lines" ADD CONSTRAINT "bag_lines_variant_id_product_variants_id_fk" FOREIGN KEY ("variant_id") REFERENCES "public"."product_variants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- A row's options, price, photo or on/off are content; its stock count alone is stock (decision 094), so a sale
-- of a size leaves the pages without stock in memory as a product's sale does.
CREATE TRIGGER product_variants_content_version AFTER INSERT OR DELETE ON "product_variants"
  FOR EACH STATEMENT EXECUTE FUNCTION bump_content_version();
--> statement-breakpoint
CREATE TRIGGER product_variants_content_update AFTER UPDATE ON "product_variants" FOR EACH ROW
  WHEN ((to_jsonb(OLD) - 'stock_quantity' - 'updated_at') IS DISTINCT FROM (to_jsonb(NEW) - 'stock_quantity' - 'updated_at'))
  EXECUTE FUNCTION bump_content_version();
--> statement-breakpoint
CREATE TRIGGER product_variants_stock_update AFTER UPDATE OF "stock_quantity" ON "product_variants" FOR EACH ROW
  WHEN (OLD.stock_quantity IS DISTINCT FROM NEW.stock_quantity)
  EXECUTE FUNCTION bump_stock_version();
