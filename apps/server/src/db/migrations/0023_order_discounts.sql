CREATE TABLE "order_discounts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"offer_id" uuid,
	"label" text NOT NULL,
	"times" integer NOT NULL,
	"amount_ore" bigint NOT NULL,
	CONSTRAINT "order_discounts_amount_check" CHECK ("order_discounts"."amount_ore" > 0 AND "order_discounts"."times" > 0)
);
--> statement-breakpoint
ALTER TABLE "order_lines" DROP CONSTRAINT "order_lines_refunded_check";--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "discount_ore" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "order_discounts" ADD CONSTRAINT "order_discounts_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_discounts" ADD CONSTRAINT "order_discounts_offer_id_offers_id_fk" FOREIGN KEY ("offer_id") REFERENCES "public"."offers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "order_discounts_order_idx" ON "order_discounts" USING btree ("order_id","position");--> statement-breakpoint
ALTER TABLE "order_lines" ADD CONSTRAINT "order_lines_discount_check" CHECK ("order_lines"."discount_ore" >= 0 AND "order_lines"."discount_ore" <= "order_lines"."total_ore");--> statement-breakpoint
ALTER TABLE "order_lines" ADD CONSTRAINT "order_lines_refunded_check" CHECK ("order_lines"."refunded_quantity" >= 0 AND "order_lines"."refunded_quantity" <= "order_lines"."quantity" AND "order_lines"."refunded_ore" >= 0 AND "order_lines"."refunded_ore" <= "order_lines"."total_ore" - "order_lines"."discount_ore");--> statement-breakpoint
-- A product's revenue is what was paid for its lines: their goods and pant less the multi-buy discounts taken from them.
CREATE OR REPLACE FUNCTION analytics_bump_products(p_order uuid, p_store uuid, p_paid_at timestamptz, p_sign integer)
RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
	v_items integer;
BEGIN
	-- One row per product (an order may hold a product on two lines); in key order, so two
	-- orders paid at once lock the same day rows in the same order and never deadlock.
	INSERT INTO analytics_product_days AS d (store_id, day, product_key, product_id, name, category, quantity, revenue_ore)
	SELECT s.id, (p_paid_at AT TIME ZONE s.timezone)::date, coalesce(l.product_id::text, l.name), l.product_id,
		max(l.name), max(p.category), p_sign * sum(l.quantity), p_sign * sum(l.total_ore - l.discount_ore)
	FROM order_lines l
	JOIN stores s ON s.id = p_store
	LEFT JOIN products p ON p.id = l.product_id
	WHERE l.order_id = p_order
	GROUP BY 1, 2, 3, 4
	ORDER BY 3
	ON CONFLICT (store_id, day, product_key) DO UPDATE SET
		name = excluded.name,
		category = excluded.category,
		quantity = d.quantity + excluded.quantity,
		revenue_ore = d.revenue_ore + excluded.revenue_ore;
	INSERT INTO analytics_product_months AS d (store_id, month, product_key, product_id, name, category, quantity, revenue_ore)
	SELECT s.id, date_trunc('month', p_paid_at AT TIME ZONE s.timezone)::date, coalesce(l.product_id::text, l.name), l.product_id,
		max(l.name), max(p.category), p_sign * sum(l.quantity), p_sign * sum(l.total_ore - l.discount_ore)
	FROM order_lines l
	JOIN stores s ON s.id = p_store
	LEFT JOIN products p ON p.id = l.product_id
	WHERE l.order_id = p_order
	GROUP BY 1, 2, 3, 4
	ORDER BY 3
	ON CONFLICT (store_id, month, product_key) DO UPDATE SET
		name = excluded.name,
		category = excluded.category,
		quantity = d.quantity + excluded.quantity,
		revenue_ore = d.revenue_ore + excluded.revenue_ore;
	SELECT coalesce(sum(quantity), 0) INTO v_items FROM order_lines WHERE order_id = p_order;
	RETURN p_sign * v_items;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION analytics_order_line_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	o record;
BEGIN
	SELECT store_id, paid_at INTO o FROM orders
	WHERE id = (CASE WHEN TG_OP = 'DELETE' THEN OLD.order_id ELSE NEW.order_id END)
		AND state = 'paid' AND store_id IS NOT NULL AND paid_at IS NOT NULL;
	IF NOT FOUND THEN
		RETURN NULL;
	END IF;
	IF TG_OP <> 'INSERT' THEN
		PERFORM analytics_bump_line(o.store_id, o.paid_at, OLD.product_id, OLD.name, -OLD.quantity,
			-(OLD.total_ore - OLD.discount_ore));
	END IF;
	IF TG_OP <> 'DELETE' THEN
		PERFORM analytics_bump_line(o.store_id, o.paid_at, NEW.product_id, NEW.name, NEW.quantity,
			NEW.total_ore - NEW.discount_ore);
	END IF;
	RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER analytics_order_lines ON order_lines;--> statement-breakpoint
CREATE TRIGGER analytics_order_lines AFTER INSERT OR DELETE OR UPDATE OF quantity, total_ore, discount_ore ON order_lines
FOR EACH ROW EXECUTE FUNCTION analytics_order_line_changed();
