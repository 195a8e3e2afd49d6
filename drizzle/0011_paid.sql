CREATE TABLE "order_access" (
	"order_id" uuid PRIMARY KEY NOT NULL,
	"page_token_hash" text NOT NULL,
	"buyer_token_hash" text,
	"buyer_expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "order_access_page_token_hash_unique" UNIQUE("page_token_hash")
);
--> statement-breakpoint
ALTER TABLE "order_access" ADD CONSTRAINT "order_access_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;