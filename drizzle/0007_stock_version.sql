-- Stock moves apart from content (decision 094). A hold, a sale or a stock count changes only the
-- pages that show stock; the rest of the page cache (/, /about, /blog ...) stays valid, so a crowd
-- buying the last pieces does not make every page render again.
CREATE SEQUENCE IF NOT EXISTS "stock_version";
--> statement-breakpoint
-- The same channel as content changes: every instance re-reads both versions when either moves.
CREATE OR REPLACE FUNCTION bump_stock_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM nextval('stock_version');
  PERFORM pg_notify('content_version', 'stock');
  RETURN NULL;
END;
$$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS stock_holds_content_version ON "stock_holds";
--> statement-breakpoint
CREATE TRIGGER stock_holds_stock_version AFTER INSERT OR DELETE OR UPDATE OF "status", "quantity", "expires_at" ON "stock_holds"
  FOR EACH STATEMENT EXECUTE FUNCTION bump_stock_version();
--> statement-breakpoint
DROP TRIGGER IF EXISTS catalog_items_content_version ON "catalog_items";
--> statement-breakpoint
CREATE TRIGGER catalog_items_content_version AFTER INSERT OR DELETE ON "catalog_items"
  FOR EACH STATEMENT EXECUTE FUNCTION bump_content_version();
--> statement-breakpoint
-- An update is content unless it only moved the stock count (a sale, a refund's units back, the
-- owner's count); comparing whole rows keeps a column added later on the content side.
CREATE TRIGGER catalog_items_content_update AFTER UPDATE ON "catalog_items" FOR EACH ROW
  WHEN ((to_jsonb(OLD) - 'stock_quantity' - 'updated_at') IS DISTINCT FROM (to_jsonb(NEW) - 'stock_quantity' - 'updated_at'))
  EXECUTE FUNCTION bump_content_version();
--> statement-breakpoint
CREATE TRIGGER catalog_items_stock_update AFTER UPDATE OF "stock_quantity" ON "catalog_items" FOR EACH ROW
  WHEN (OLD.stock_quantity IS DISTINCT FROM NEW.stock_quantity)
  EXECUTE FUNCTION bump_stock_version();
