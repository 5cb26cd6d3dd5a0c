DROP INDEX "shopping_sessions_inside_idx";--> statement-breakpoint
DROP INDEX "shopping_sessions_abandoned_idx";--> statement-breakpoint
DROP INDEX "shopping_sessions_open_idx";--> statement-breakpoint
-- Money sums become bigint; the analytics triggers name these columns, so they step aside while the types change.
DROP TRIGGER analytics_orders ON orders;--> statement-breakpoint
DROP TRIGGER analytics_order_lines ON order_lines;--> statement-breakpoint
DROP TRIGGER analytics_refunds ON refunds;--> statement-breakpoint
ALTER TABLE "refund_lines" ALTER COLUMN "amount_ore" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "refunds" ALTER COLUMN "amount_ore" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "spot_checks" ALTER COLUMN "charge_ore" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "order_lines" ALTER COLUMN "total_ore" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "order_lines" ALTER COLUMN "refunded_ore" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "total_ore" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "vat_ore" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "refunded_ore" SET DATA TYPE bigint;--> statement-breakpoint
CREATE TRIGGER analytics_orders AFTER INSERT OR UPDATE OF state, store_id, paid_at, total_ore, vat_ore ON orders
FOR EACH ROW EXECUTE FUNCTION analytics_order_changed();--> statement-breakpoint
CREATE TRIGGER analytics_order_lines AFTER INSERT OR DELETE OR UPDATE OF quantity, total_ore ON order_lines
FOR EACH ROW EXECUTE FUNCTION analytics_order_line_changed();--> statement-breakpoint
CREATE TRIGGER analytics_refunds AFTER INSERT OR DELETE OR UPDATE OF state, amount_ore ON refunds
FOR EACH ROW EXECUTE FUNCTION analytics_refund_changed();--> statement-breakpoint
ALTER TABLE "shopping_sessions" ADD COLUMN "state" text DEFAULT 'entering' NOT NULL;--> statement-breakpoint
ALTER TABLE "shopping_sessions" ADD COLUMN "entry_used_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "shopping_sessions" ADD COLUMN "exited_at" timestamp with time zone;--> statement-breakpoint
-- Each visit's state from what its timestamps and order say. A paid exit also passed the gate or paid from the phone.
UPDATE "shopping_sessions" s SET
  "entry_used_at" = s."door_opened_at",
  "state" = CASE
    WHEN s."door_opened_at" IS NULL AND s."entry_revoked_at" IS NOT NULL THEN 'cancelled'
    WHEN s."door_opened_at" IS NULL THEN 'entering'
    WHEN EXISTS (SELECT 1 FROM "orders" o WHERE o."session_id" = s."id" AND o."state" = 'paid') THEN 'paid'
    WHEN s."checked_out_at" IS NOT NULL THEN 'ended_empty'
    WHEN EXISTS (SELECT 1 FROM "orders" o WHERE o."session_id" = s."id" AND o."state" IN ('charging', 'unsettled')) THEN 'charging'
    WHEN s."abandoned_at" IS NOT NULL AND EXISTS (SELECT 1 FROM "cart_items" i WHERE i."session_id" = s."id") THEN 'left_unpaid'
    WHEN s."abandoned_at" IS NOT NULL THEN 'ended_empty'
    ELSE 'in_store' END;--> statement-breakpoint
-- Before, a shopper could have two open visits in one store (a second entry code passed the door). The newest stays
-- open; an older one with goods is left unpaid for staff to settle, an empty one ends.
UPDATE "shopping_sessions" s SET
  "state" = CASE WHEN EXISTS (SELECT 1 FROM "cart_items" i WHERE i."session_id" = s."id") THEN 'left_unpaid' ELSE 'ended_empty' END,
  "abandoned_at" = coalesce(s."abandoned_at", now())
FROM (
  SELECT "id", row_number() OVER (PARTITION BY "customer_id", "store_id" ORDER BY "door_opened_at" DESC, "id" DESC) AS n
  FROM "shopping_sessions" WHERE "state" = 'in_store'
) older
WHERE older."id" = s."id" AND older.n > 1;--> statement-breakpoint
CREATE UNIQUE INDEX "shopping_sessions_one_open_idx" ON "shopping_sessions" USING btree ("customer_id","store_id") WHERE "shopping_sessions"."state" in ('in_store', 'charging');--> statement-breakpoint
CREATE INDEX "shopping_sessions_unpaid_idx" ON "shopping_sessions" USING btree ("customer_id") WHERE "shopping_sessions"."state" = 'left_unpaid';--> statement-breakpoint
CREATE INDEX "shopping_sessions_inside_idx" ON "shopping_sessions" USING btree ("door_opened_at","id") WHERE "shopping_sessions"."state" in ('in_store', 'charging');--> statement-breakpoint
CREATE INDEX "shopping_sessions_abandoned_idx" ON "shopping_sessions" USING btree ("door_opened_at","id") WHERE "shopping_sessions"."state" in ('left_unpaid', 'written_off') OR ("shopping_sessions"."state" = 'ended_empty' AND "shopping_sessions"."abandoned_at" IS NOT NULL);--> statement-breakpoint
CREATE INDEX "shopping_sessions_open_idx" ON "shopping_sessions" USING btree ("last_activity_at") WHERE "shopping_sessions"."state" = 'in_store';--> statement-breakpoint
ALTER TABLE "shopping_sessions" ADD CONSTRAINT "shopping_sessions_state_check" CHECK ("shopping_sessions"."state" in ('entering', 'in_store', 'charging', 'paid', 'ended_empty', 'left_unpaid', 'written_off', 'cancelled'));
