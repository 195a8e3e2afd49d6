CREATE TABLE "data_access_links" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "data_access_sessions" (
	"id_hash" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "erasure_requests" (
	"id" serial PRIMARY KEY NOT NULL,
	"email" text,
	"reference" text NOT NULL,
	"requested_by" text NOT NULL,
	"open_orders" text NOT NULL,
	"status" text DEFAULT 'scheduled' NOT NULL,
	"undo_token_hash" text,
	"requested_at" timestamp with time zone NOT NULL,
	"scheduled_for" timestamp with time zone NOT NULL,
	"cancelled_at" timestamp with time zone,
	"carried_out_at" timestamp with time zone,
	CONSTRAINT "erasure_requests_reference_unique" UNIQUE("reference"),
	CONSTRAINT "erasure_requests_undo_token_hash_unique" UNIQUE("undo_token_hash")
);
--> statement-breakpoint
ALTER TABLE "blog_posts" ADD COLUMN "audience" text DEFAULT 'public' NOT NULL;--> statement-breakpoint
ALTER TABLE "blog_posts" ADD COLUMN "audience_tiers" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
CREATE INDEX "data_access_links_expires_idx" ON "data_access_links" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "data_access_sessions_expires_idx" ON "data_access_sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "erasure_requests_due_idx" ON "erasure_requests" USING btree ("status","scheduled_for");