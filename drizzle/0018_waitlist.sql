CREATE TABLE "waitlist_entries" (
	"id" serial PRIMARY KEY NOT NULL,
	"stock_key" text NOT NULL,
	"ticket_option_id" integer NOT NULL,
	"email" text NOT NULL,
	"name" text NOT NULL,
	"seats" integer NOT NULL,
	"status" text DEFAULT 'waiting' NOT NULL,
	"offer_token" text,
	"offered_at" timestamp with time zone,
	"offer_expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "waitlist_entries_offer_token_unique" UNIQUE("offer_token")
);
--> statement-breakpoint
ALTER TABLE "stock_holds" ALTER COLUMN "order_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "stock_holds" ADD COLUMN "waitlist_entry_id" integer;--> statement-breakpoint
ALTER TABLE "waitlist_entries" ADD CONSTRAINT "waitlist_entries_ticket_option_id_ticket_options_id_fk" FOREIGN KEY ("ticket_option_id") REFERENCES "public"."ticket_options"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "waitlist_entries_key_status_idx" ON "waitlist_entries" USING btree ("stock_key","status","id");--> statement-breakpoint
CREATE UNIQUE INDEX "waitlist_entries_one_per_email_idx" ON "waitlist_entries" USING btree ("stock_key","email") WHERE status in ('waiting', 'offered');--> statement-breakpoint
ALTER TABLE "stock_holds" ADD CONSTRAINT "stock_holds_waitlist_entry_id_waitlist_entries_id_fk" FOREIGN KEY ("waitlist_entry_id") REFERENCES "public"."waitlist_entries"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stock_holds_waitlist_entry_idx" ON "stock_holds" USING btree ("waitlist_entry_id");