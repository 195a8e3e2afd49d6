CREATE TABLE "payfast_held_notifications" (
	"payment_id" text PRIMARY KEY NOT NULL,
	"subscription_id" integer NOT NULL,
	"body" text NOT NULL,
	"status" text DEFAULT 'held' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"settled_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "member_subscriptions" ADD COLUMN "paused_until" date;--> statement-breakpoint
ALTER TABLE "payfast_held_notifications" ADD CONSTRAINT "payfast_held_notifications_subscription_id_member_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."member_subscriptions"("id") ON DELETE cascade ON UPDATE no action;