CREATE TABLE "member_subscriptions" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" uuid NOT NULL,
	"member_id" integer,
	"provider" text NOT NULL,
	"token" text,
	"tier_slug" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"next_charge_on" date,
	"card_failed_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "member_subscriptions_order_id_unique" UNIQUE("order_id"),
	CONSTRAINT "member_subscriptions_token_unique" UNIQUE("token")
);
--> statement-breakpoint
CREATE TABLE "simulated_subscriptions" (
	"token" text PRIMARY KEY NOT NULL,
	"payment_ref" text NOT NULL,
	"custom_ref" text NOT NULL,
	"item_name" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"run_date" date NOT NULL,
	"status" text DEFAULT 'ACTIVE' NOT NULL,
	"fail_next" boolean DEFAULT false NOT NULL,
	"charges" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "member_subscriptions" ADD CONSTRAINT "member_subscriptions_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_subscriptions" ADD CONSTRAINT "member_subscriptions_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "member_subscriptions_member_idx" ON "member_subscriptions" USING btree ("member_id","status");