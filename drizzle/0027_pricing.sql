ALTER TABLE "membership_tiers" ADD COLUMN "perk_percent_off_events" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "membership_tiers" ADD COLUMN "perk_free_tickets_per_month" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "membership_tiers" ADD COLUMN "perk_free_ticket_events" jsonb DEFAULT '"any"'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "membership_tiers" ADD COLUMN "perk_all_events_free" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "membership_tiers" ADD COLUMN "perk_percent_off_products" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "perk_member_id" integer;--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "perk_free_tickets" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "order_lines" ADD CONSTRAINT "order_lines_perk_member_id_members_id_fk" FOREIGN KEY ("perk_member_id") REFERENCES "public"."members"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "order_lines_perk_member_idx" ON "order_lines" USING btree ("perk_member_id");--> statement-breakpoint
-- Hand-written backfill: the seeded tiers get the perks their texts promise (decision 127), as the seed gives new databases.
UPDATE "membership_tiers" SET "perk_free_tickets_per_month" = 4, "perk_free_ticket_events" = '["tablecloth-workshop","radiance-reset"]'::jsonb WHERE "slug" IN ('glow-bee-journey', 'purposeful-bee');--> statement-breakpoint
UPDATE "membership_tiers" SET "perk_all_events_free" = true WHERE "slug" IN ('upcycle-kings-queens', 'vip-sustainable-human', 'upcycle-queen', 'vip-sustainable-woman');--> statement-breakpoint
UPDATE "membership_tiers" SET "perk_percent_off_events" = 10 WHERE "slug" = 'creative-bee';--> statement-breakpoint
UPDATE "membership_tiers" SET "perk_percent_off_events" = 10, "perk_free_tickets_per_month" = 1, "perk_free_ticket_events" = '["sip-style"]'::jsonb WHERE "slug" IN ('glow-bee', 'purpose-bee');
