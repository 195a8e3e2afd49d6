-- A counter that moves whenever data shown on public pages changes, so every app instance can tell
-- that its cached anonymous pages are stale. A sequence, not a row: bumping it takes no row lock,
-- so concurrent checkouts never queue behind each other here. (A rolled-back bump only costs a
-- needless cache refresh.)
CREATE SEQUENCE IF NOT EXISTS "content_version";
--> statement-breakpoint
CREATE OR REPLACE FUNCTION bump_content_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM nextval('content_version');
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER catalog_items_content_version AFTER INSERT OR UPDATE OR DELETE ON "catalog_items"
  FOR EACH STATEMENT EXECUTE FUNCTION bump_content_version();
--> statement-breakpoint
CREATE TRIGGER events_content_version AFTER INSERT OR UPDATE OR DELETE ON "events"
  FOR EACH STATEMENT EXECUTE FUNCTION bump_content_version();
--> statement-breakpoint
CREATE TRIGGER ticket_options_content_version AFTER INSERT OR UPDATE OR DELETE ON "ticket_options"
  FOR EACH STATEMENT EXECUTE FUNCTION bump_content_version();
--> statement-breakpoint
CREATE TRIGGER membership_tiers_content_version AFTER INSERT OR UPDATE OR DELETE ON "membership_tiers"
  FOR EACH STATEMENT EXECUTE FUNCTION bump_content_version();
--> statement-breakpoint
-- Views and likes change blog_posts too; they may be a minute stale on cached pages (the cache's
-- time limit) rather than emptying the whole cache on every read.
CREATE TRIGGER blog_posts_content_version AFTER INSERT OR DELETE OR UPDATE OF "slug", "title", "excerpt", "content", "author", "category", "published_on", "image" ON "blog_posts"
  FOR EACH STATEMENT EXECUTE FUNCTION bump_content_version();
--> statement-breakpoint
-- Holds change the stock a visitor can buy ("{n} LIMITED STOCK!", SOLD OUT).
CREATE TRIGGER stock_holds_content_version AFTER INSERT OR DELETE OR UPDATE OF "status", "quantity", "expires_at" ON "stock_holds"
  FOR EACH STATEMENT EXECUTE FUNCTION bump_content_version();
