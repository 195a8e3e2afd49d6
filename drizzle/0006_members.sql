CREATE TABLE "member_login_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"member_id" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "member_periods" (
	"id" serial PRIMARY KEY NOT NULL,
	"member_id" integer NOT NULL,
	"kind" text NOT NULL,
	"order_id" uuid,
	"tier_slug" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"starts_on" date NOT NULL,
	"ends_on" date NOT NULL,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "member_periods_order_id_unique" UNIQUE("order_id")
);
--> statement-breakpoint
CREATE TABLE "member_sessions" (
	"id_hash" text PRIMARY KEY NOT NULL,
	"member_id" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "members" (
	"id" serial PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"name" text NOT NULL,
	"phone" text NOT NULL,
	"tier_slug" text NOT NULL,
	"next_tier_slug" text,
	"status" text DEFAULT 'active' NOT NULL,
	"paid_until" date NOT NULL,
	"joined_at" timestamp with time zone NOT NULL,
	"cancelled_at" timestamp with time zone,
	"search" text GENERATED ALWAYS AS (lower(name || ' ' || email)) STORED,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "email_outbox" ADD COLUMN "member_id" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "member_id" integer;--> statement-breakpoint
ALTER TABLE "member_login_tokens" ADD CONSTRAINT "member_login_tokens_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_periods" ADD CONSTRAINT "member_periods_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_periods" ADD CONSTRAINT "member_periods_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_sessions" ADD CONSTRAINT "member_sessions_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "members" ADD CONSTRAINT "members_tier_slug_membership_tiers_slug_fk" FOREIGN KEY ("tier_slug") REFERENCES "public"."membership_tiers"("slug") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "members" ADD CONSTRAINT "members_next_tier_slug_membership_tiers_slug_fk" FOREIGN KEY ("next_tier_slug") REFERENCES "public"."membership_tiers"("slug") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "member_login_tokens_expires_idx" ON "member_login_tokens" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "member_periods_member_idx" ON "member_periods" USING btree ("member_id","created_at");--> statement-breakpoint
CREATE INDEX "member_sessions_expires_idx" ON "member_sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "members_email_idx" ON "members" USING btree ("email");--> statement-breakpoint
CREATE INDEX "members_status_idx" ON "members" USING btree ("status","paid_until");--> statement-breakpoint
CREATE INDEX "members_tier_idx" ON "members" USING btree ("tier_slug");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "email_outbox_member_idx" ON "email_outbox" USING btree ("member_id");