CREATE TABLE "consent_records" (
	"id" serial PRIMARY KEY NOT NULL,
	"subscriber_id" integer,
	"action" text NOT NULL,
	"wording" text NOT NULL,
	"form" text NOT NULL,
	"page" text NOT NULL,
	"confirmed_by" text NOT NULL,
	"address_hash" text NOT NULL,
	"newsletter_id" integer,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "newsletter_recipients" (
	"id" serial PRIMARY KEY NOT NULL,
	"newsletter_id" integer NOT NULL,
	"email" text NOT NULL,
	"name" text,
	"basis" text NOT NULL,
	"outbox_id" integer,
	"queued_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "newsletters" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"photos" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"post_id" integer,
	"segment" jsonb NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"send_at" timestamp with time zone,
	"last_batch_at" timestamp with time zone,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subscribers" (
	"id" serial PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"name" text,
	"status" text NOT NULL,
	"confirm_token_hash" text,
	"confirm_expires_at" timestamp with time zone,
	"subscribed_at" timestamp with time zone,
	"unsubscribed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "email_outbox" ADD COLUMN "headers" jsonb;--> statement-breakpoint
ALTER TABLE "consent_records" ADD CONSTRAINT "consent_records_subscriber_id_subscribers_id_fk" FOREIGN KEY ("subscriber_id") REFERENCES "public"."subscribers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "newsletter_recipients" ADD CONSTRAINT "newsletter_recipients_newsletter_id_newsletters_id_fk" FOREIGN KEY ("newsletter_id") REFERENCES "public"."newsletters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "consent_records_subscriber_idx" ON "consent_records" USING btree ("subscriber_id");--> statement-breakpoint
CREATE INDEX "consent_records_hash_idx" ON "consent_records" USING btree ("address_hash");--> statement-breakpoint
CREATE INDEX "consent_records_newsletter_idx" ON "consent_records" USING btree ("newsletter_id");--> statement-breakpoint
CREATE UNIQUE INDEX "newsletter_recipients_address_idx" ON "newsletter_recipients" USING btree ("newsletter_id","email");--> statement-breakpoint
CREATE INDEX "newsletter_recipients_queue_idx" ON "newsletter_recipients" USING btree ("newsletter_id","outbox_id");--> statement-breakpoint
CREATE INDEX "newsletters_status_idx" ON "newsletters" USING btree ("status","send_at");--> statement-breakpoint
CREATE UNIQUE INDEX "subscribers_email_idx" ON "subscribers" USING btree ("email");--> statement-breakpoint
CREATE INDEX "subscribers_status_idx" ON "subscribers" USING btree ("status");