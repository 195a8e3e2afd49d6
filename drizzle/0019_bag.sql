CREATE TABLE "bag_lines" (
	"id" serial PRIMARY KEY NOT NULL,
	"bag_id" text NOT NULL,
	"line_key" text NOT NULL,
	"catalog_item_id" integer,
	"ticket_option_id" integer,
	"quantity" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bags" (
	"id" text PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone DEFAULT now() NOT NULL,
	"checkout_order_id" uuid
);
--> statement-breakpoint
ALTER TABLE "bag_lines" ADD CONSTRAINT "bag_lines_bag_id_bags_id_fk" FOREIGN KEY ("bag_id") REFERENCES "public"."bags"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bag_lines" ADD CONSTRAINT "bag_lines_catalog_item_id_catalog_items_id_fk" FOREIGN KEY ("catalog_item_id") REFERENCES "public"."catalog_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bag_lines" ADD CONSTRAINT "bag_lines_ticket_option_id_ticket_options_id_fk" FOREIGN KEY ("ticket_option_id") REFERENCES "public"."ticket_options"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bags" ADD CONSTRAINT "bags_checkout_order_id_orders_id_fk" FOREIGN KEY ("checkout_order_id") REFERENCES "public"."orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "bag_lines_bag_key_idx" ON "bag_lines" USING btree ("bag_id","line_key");--> statement-breakpoint
CREATE INDEX "bags_last_used_idx" ON "bags" USING btree ("last_used_at");--> statement-breakpoint
CREATE INDEX "bags_checkout_order_idx" ON "bags" USING btree ("checkout_order_id");--> statement-breakpoint
CREATE INDEX "order_lines_order_idx" ON "order_lines" USING btree ("order_id","id");