-- What one client holds unpaid and unexpired (of one stock key, and in all), read once the client's
-- lock is held (decision 108). The uncounted checkout is one statement, and a statement reads what was
-- committed when it began; this function is VOLATILE, so its second query reads afresh after the lock:
-- a checkout of the same client that committed while this one waited is counted. The lock is the one
-- placeHold takes (hashtext of 'client:' and the key), so counted and uncounted checkouts queue together.
CREATE OR REPLACE FUNCTION "unpaid_holds_of_client"("p_client" text, "p_key" text, "p_now" timestamp with time zone)
RETURNS TABLE("item" integer, "total" integer)
LANGUAGE sql VOLATILE AS $$
  SELECT pg_advisory_xact_lock(hashtext('client:' || p_client));
  SELECT coalesce(sum(quantity) FILTER (WHERE stock_key = p_key), 0)::integer,
         coalesce(sum(quantity), 0)::integer
    FROM stock_holds
   WHERE client_key = p_client AND status = 'held' AND expires_at > p_now;
$$;
