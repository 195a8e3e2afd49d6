ALTER TABLE "blog_posts" ADD COLUMN "audience" text DEFAULT 'public' NOT NULL;--> statement-breakpoint
ALTER TABLE "blog_posts" ADD COLUMN "audience_tiers" jsonb DEFAULT '[]'::jsonb NOT NULL;