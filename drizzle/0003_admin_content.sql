CREATE TABLE "admin_audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"action" text NOT NULL,
	"entity" text NOT NULL,
	"entity_id" text,
	"summary" text NOT NULL,
	"before" jsonb,
	"after" jsonb
);
--> statement-breakpoint
CREATE TABLE "catalog_slug_redirects" (
	"old_slug" text PRIMARY KEY NOT NULL,
	"item_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "gallery_photos" (
	"id" serial PRIMARY KEY NOT NULL,
	"src" text NOT NULL,
	"alt" text NOT NULL,
	"caption" text,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "gallery_photos_src_unique" UNIQUE("src")
);
--> statement-breakpoint
CREATE TABLE "media_assets" (
	"hash" text PRIMARY KEY NOT NULL,
	"original_name" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"error" text,
	"master" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "media_renditions" (
	"hash" text NOT NULL,
	"format" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"bytes" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "media_renditions_hash_format_width_pk" PRIMARY KEY("hash","format","width")
);
--> statement-breakpoint
ALTER TABLE "blog_posts" ADD COLUMN "published" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "blog_posts" ADD COLUMN "image_alt" text;--> statement-breakpoint
ALTER TABLE "blog_posts" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "catalog_items" ADD COLUMN "image_alts" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "catalog_items" ADD COLUMN "archived" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "image_alts" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "demo" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "archived" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "membership_tiers" ADD COLUMN "visible" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "stock_holds" ADD COLUMN "client_key" text;--> statement-breakpoint
ALTER TABLE "catalog_slug_redirects" ADD CONSTRAINT "catalog_slug_redirects_item_id_catalog_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."catalog_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "media_renditions" ADD CONSTRAINT "media_renditions_hash_media_assets_hash_fk" FOREIGN KEY ("hash") REFERENCES "public"."media_assets"("hash") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "admin_audit_log_at_idx" ON "admin_audit_log" USING btree ("at");--> statement-breakpoint
CREATE INDEX "gallery_photos_sort_idx" ON "gallery_photos" USING btree ("sort_order","id");--> statement-breakpoint
CREATE INDEX "media_assets_status_idx" ON "media_assets" USING btree ("status");--> statement-breakpoint
CREATE INDEX "catalog_items_name_idx" ON "catalog_items" USING btree ("name");--> statement-breakpoint
CREATE INDEX "catalog_items_sort_idx" ON "catalog_items" USING btree ("sort_order","id");--> statement-breakpoint
CREATE INDEX "stock_holds_client_idx" ON "stock_holds" USING btree ("client_key","status");--> statement-breakpoint
-- Public pages show these too (the content version from 0001): an owner's edit empties
-- every instance's page cache.
CREATE TRIGGER gallery_photos_content_version AFTER INSERT OR UPDATE OR DELETE ON "gallery_photos"
  FOR EACH STATEMENT EXECUTE FUNCTION bump_content_version();
--> statement-breakpoint
CREATE TRIGGER catalog_slug_redirects_content_version AFTER INSERT OR UPDATE OR DELETE ON "catalog_slug_redirects"
  FOR EACH STATEMENT EXECUTE FUNCTION bump_content_version();
--> statement-breakpoint
-- Settings hold the contact details that /contact and the footer show.
CREATE TRIGGER app_settings_content_version AFTER INSERT OR UPDATE OR DELETE ON "app_settings"
  FOR EACH STATEMENT EXECUTE FUNCTION bump_content_version();
--> statement-breakpoint
DROP TRIGGER IF EXISTS blog_posts_content_version ON "blog_posts";
--> statement-breakpoint
CREATE TRIGGER blog_posts_content_version AFTER INSERT OR DELETE OR UPDATE OF "slug", "title", "excerpt", "content", "author", "category", "published_on", "image", "image_alt", "published" ON "blog_posts"
  FOR EACH STATEMENT EXECUTE FUNCTION bump_content_version();
--> statement-breakpoint
-- Every instance LISTENs on this channel and drops its page cache as soon as a change commits,
-- instead of waiting for its next read of the sequence (decision 083).
CREATE OR REPLACE FUNCTION bump_content_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM nextval('content_version');
  PERFORM pg_notify('content_version', '');
  RETURN NULL;
END;
$$;
