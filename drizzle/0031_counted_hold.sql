-- A counted checkout's holds decided in one statement (decision 142). The statement that stores the order
-- calls one of these first: it takes the client's lock and the stock keys' locks (the ones placeHold and
-- placeHolds take, in the same order), then counts afresh. A statement reads what was committed when it
-- began; these functions are VOLATILE, so each of their queries after the locks reads what was committed
-- before them. The locks are held until the statement ends, so no round trip to the app is made while
-- they are held.

-- Units that exist for a key (as unitsForKey counts them: a product's or a row's stock, a session's or an
-- option's capacity minus seats sold; NULL when nothing is counted) and units held unpaid and unexpired.
CREATE OR REPLACE FUNCTION "stock_key_counts"("p_key" text, "p_now" timestamp with time zone)
RETURNS TABLE("units" integer, "taken" integer)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_kind text := split_part(p_key, ':', 1);
  v_id integer;
  v_session text := substring(p_key from '^ticket:[0-9]+:(.+)$');
  v_capacity integer;
BEGIN
  IF v_kind IN ('catalog', 'variant', 'ticket') THEN
    v_id := nullif(split_part(p_key, ':', 2), '')::integer;
  END IF;
  IF v_kind = 'catalog' THEN
    SELECT c.stock_quantity INTO units FROM catalog_items c WHERE c.id = v_id;
  ELSIF v_kind = 'variant' THEN
    SELECT v.stock_quantity INTO units FROM product_variants v WHERE v.id = v_id;
  ELSIF v_kind = 'ticket' THEN
    IF v_session IS NOT NULL THEN
      SELECT s.capacity INTO v_capacity FROM event_sessions s
        JOIN ticket_options t ON t.event_id = s.event_id
       WHERE t.id = v_id AND s.starts_at = v_session::timestamptz LIMIT 1;
    END IF;
    IF v_capacity IS NULL THEN
      SELECT t.capacity INTO v_capacity FROM ticket_options t WHERE t.id = v_id;
    END IF;
    IF v_capacity IS NOT NULL THEN
      units := v_capacity - (SELECT coalesce(sum(h.quantity), 0)::integer FROM stock_holds h
                              WHERE h.stock_key = p_key AND h.status = 'converted');
    END IF;
  END IF;
  SELECT coalesce(sum(h.quantity), 0)::integer INTO taken FROM stock_holds h
   WHERE h.stock_key = p_key AND h.status = 'held' AND h.expires_at > p_now;
  RETURN NEXT;
END;
$$;
--> statement-breakpoint
-- One item's checkout: the client's lock, the key's lock, then the counts and the client's budget.
CREATE OR REPLACE FUNCTION "counted_hold_counts"("p_key" text, "p_client" text, "p_now" timestamp with time zone)
RETURNS TABLE("units" integer, "taken" integer, "item" integer, "total" integer)
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  IF p_client IS NOT NULL THEN
    PERFORM pg_advisory_xact_lock(hashtext('client:' || p_client));
  END IF;
  PERFORM pg_advisory_xact_lock(hashtext(p_key));
  SELECT k.units, k.taken INTO units, taken FROM stock_key_counts(p_key, p_now) k;
  IF p_client IS NOT NULL THEN
    SELECT coalesce(sum(h.quantity) FILTER (WHERE h.stock_key = p_key), 0)::integer,
           coalesce(sum(h.quantity), 0)::integer
      INTO item, total
      FROM stock_holds h
     WHERE h.client_key = p_client AND h.status = 'held' AND h.expires_at > p_now;
  END IF;
  RETURN NEXT;
END;
$$;
--> statement-breakpoint
-- A bag's checkout: the client's lock, then the counted keys' locks in the order given (callers sort
-- them, so two bags never wait for each other in a circle), then a row per key: its counts and what the
-- client holds of it, and on every row what the client holds in all. "unpaid:" keys count no units.
CREATE OR REPLACE FUNCTION "counted_holds_counts"("p_keys" text[], "p_client" text, "p_now" timestamp with time zone)
RETURNS TABLE("key" text, "units" integer, "taken" integer, "item" integer, "total" integer)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_key text;
  v_total integer;
BEGIN
  IF p_client IS NOT NULL THEN
    PERFORM pg_advisory_xact_lock(hashtext('client:' || p_client));
  END IF;
  FOREACH v_key IN ARRAY p_keys LOOP
    IF v_key NOT LIKE 'unpaid:%' THEN
      PERFORM pg_advisory_xact_lock(hashtext(v_key));
    END IF;
  END LOOP;
  IF p_client IS NOT NULL THEN
    SELECT coalesce(sum(h.quantity), 0)::integer INTO v_total FROM stock_holds h
     WHERE h.client_key = p_client AND h.status = 'held' AND h.expires_at > p_now;
  END IF;
  FOREACH v_key IN ARRAY p_keys LOOP
    key := v_key;
    units := NULL;
    taken := 0;
    IF v_key NOT LIKE 'unpaid:%' THEN
      SELECT k.units, k.taken INTO units, taken FROM stock_key_counts(v_key, p_now) k;
    END IF;
    item := NULL;
    total := v_total;
    IF p_client IS NOT NULL THEN
      SELECT coalesce(sum(h.quantity), 0)::integer INTO item FROM stock_holds h
       WHERE h.client_key = p_client AND h.stock_key = v_key AND h.status = 'held' AND h.expires_at > p_now;
    END IF;
    RETURN NEXT;
  END LOOP;
END;
$$;
