-- An unpaid hold of something without counted stock ("unpaid:…", decision 108) moves no stock a page
-- shows: it must not make the stock pages render again. Once a statement-level trigger, every
-- membership or service checkout invalidated /styled-collections, products and tickets pages in every
-- instance (the soak's pages p99 went from 0.1 to 1.4 s). Row triggers see the row's key; a notify
-- repeated within one transaction is delivered once.
DROP TRIGGER IF EXISTS stock_holds_stock_version ON "stock_holds";
--> statement-breakpoint
CREATE TRIGGER stock_holds_stock_version_insert AFTER INSERT ON "stock_holds" FOR EACH ROW
  WHEN (NEW.stock_key NOT LIKE 'unpaid:%')
  EXECUTE FUNCTION bump_stock_version();
--> statement-breakpoint
CREATE TRIGGER stock_holds_stock_version_delete AFTER DELETE ON "stock_holds" FOR EACH ROW
  WHEN (OLD.stock_key NOT LIKE 'unpaid:%')
  EXECUTE FUNCTION bump_stock_version();
--> statement-breakpoint
CREATE TRIGGER stock_holds_stock_version_update AFTER UPDATE OF "status", "quantity", "expires_at" ON "stock_holds" FOR EACH ROW
  WHEN (NEW.stock_key NOT LIKE 'unpaid:%')
  EXECUTE FUNCTION bump_stock_version();
