ALTER TABLE "shopping_sessions" ADD COLUMN "cart_version" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "shopping_sessions" ADD COLUMN "cart_changed_by" bigint;--> statement-breakpoint
-- Every transaction that changes a visit's cart lines raises its cart_version once, at the end of its first writing
-- statement: a scan's own statement raises it itself (and reads the new number back), so the trigger passes over a
-- visit this transaction has raised already. A line never moves to another visit, so the new rows name the visit.
CREATE FUNCTION cart_lines_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE shopping_sessions s SET cart_version = s.cart_version + 1, cart_changed_by = txid_current()
  WHERE s.id IN (SELECT session_id FROM changed) AND s.cart_changed_by IS DISTINCT FROM txid_current();
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER cart_lines_inserted AFTER INSERT ON cart_items REFERENCING NEW TABLE AS changed
FOR EACH STATEMENT EXECUTE FUNCTION cart_lines_changed();--> statement-breakpoint
CREATE TRIGGER cart_lines_updated AFTER UPDATE ON cart_items REFERENCING NEW TABLE AS changed
FOR EACH STATEMENT EXECUTE FUNCTION cart_lines_changed();--> statement-breakpoint
CREATE TRIGGER cart_lines_deleted AFTER DELETE ON cart_items REFERENCING OLD TABLE AS changed
FOR EACH STATEMENT EXECUTE FUNCTION cart_lines_changed();--> statement-breakpoint
-- A truncate names no rows: every visit's lines may have gone.
CREATE FUNCTION cart_lines_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE shopping_sessions SET cart_version = cart_version + 1, cart_changed_by = txid_current();
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER cart_lines_truncated AFTER TRUNCATE ON cart_items
FOR EACH STATEMENT EXECUTE FUNCTION cart_lines_truncated();
