CREATE TABLE "analytics_product_days" (
	"store_id" uuid NOT NULL,
	"day" date NOT NULL,
	"product_key" text NOT NULL,
	"product_id" uuid,
	"name" text NOT NULL,
	"category" text,
	"quantity" integer DEFAULT 0 NOT NULL,
	"revenue_ore" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "analytics_product_days_store_id_day_product_key_pk" PRIMARY KEY("store_id","day","product_key")
);
--> statement-breakpoint
CREATE TABLE "analytics_product_months" (
	"store_id" uuid NOT NULL,
	"month" date NOT NULL,
	"product_key" text NOT NULL,
	"product_id" uuid,
	"name" text NOT NULL,
	"category" text,
	"quantity" integer DEFAULT 0 NOT NULL,
	"revenue_ore" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "analytics_product_months_store_id_month_product_key_pk" PRIMARY KEY("store_id","month","product_key")
);
--> statement-breakpoint
CREATE TABLE "analytics_store_hours" (
	"store_id" uuid NOT NULL,
	"hour" timestamp NOT NULL,
	"entries" integer DEFAULT 0 NOT NULL,
	"purchases" integer DEFAULT 0 NOT NULL,
	"revenue_ore" bigint DEFAULT 0 NOT NULL,
	"vat_ore" bigint DEFAULT 0 NOT NULL,
	"items" integer DEFAULT 0 NOT NULL,
	"refunds" integer DEFAULT 0 NOT NULL,
	"refunds_ore" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "analytics_store_hours_store_id_hour_pk" PRIMARY KEY("store_id","hour")
);
--> statement-breakpoint
ALTER TABLE "analytics_product_days" ADD CONSTRAINT "analytics_product_days_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_product_months" ADD CONSTRAINT "analytics_product_months_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_store_hours" ADD CONSTRAINT "analytics_store_hours_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The rollups above are kept by the triggers below in the same transaction as
-- the rows they count; each change adds its difference with INSERT … ON
-- CONFLICT DO UPDATE, which is atomic, so concurrent checkouts never lose a
-- count. Buckets are the store's local hour and day (stores.timezone).
CREATE FUNCTION analytics_bump_hour(
	p_store uuid, p_at timestamptz, p_entries integer, p_purchases integer, p_revenue bigint,
	p_vat bigint, p_items integer, p_refunds integer, p_refunds_ore bigint
) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO analytics_store_hours AS h
		(store_id, hour, entries, purchases, revenue_ore, vat_ore, items, refunds, refunds_ore)
	SELECT s.id, date_trunc('hour', p_at AT TIME ZONE s.timezone), p_entries, p_purchases, p_revenue,
		p_vat, p_items, p_refunds, p_refunds_ore
	FROM stores s WHERE s.id = p_store
	ON CONFLICT (store_id, hour) DO UPDATE SET
		entries = h.entries + excluded.entries,
		purchases = h.purchases + excluded.purchases,
		revenue_ore = h.revenue_ore + excluded.revenue_ore,
		vat_ore = h.vat_ore + excluded.vat_ore,
		items = h.items + excluded.items,
		refunds = h.refunds + excluded.refunds,
		refunds_ore = h.refunds_ore + excluded.refunds_ore;
END $$;
--> statement-breakpoint
-- Adds (p_sign 1) or takes out (-1) the lines of one paid order on its day and month; returns the items.
CREATE FUNCTION analytics_bump_products(p_order uuid, p_store uuid, p_paid_at timestamptz, p_sign integer)
RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
	v_items integer;
BEGIN
	-- One row per product (an order may hold a product on two lines); in key order, so two
	-- orders paid at once lock the same day rows in the same order and never deadlock.
	INSERT INTO analytics_product_days AS d (store_id, day, product_key, product_id, name, category, quantity, revenue_ore)
	SELECT s.id, (p_paid_at AT TIME ZONE s.timezone)::date, coalesce(l.product_id::text, l.name), l.product_id,
		max(l.name), max(p.category), p_sign * sum(l.quantity), p_sign * sum(l.total_ore)
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
		max(l.name), max(p.category), p_sign * sum(l.quantity), p_sign * sum(l.total_ore)
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
-- One line's quantity and amount (negative to take them out) on its paid order's hour, day and month.
CREATE FUNCTION analytics_bump_line(
	p_store uuid, p_paid_at timestamptz, p_product uuid, p_name text, p_quantity integer, p_total bigint
) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	PERFORM analytics_bump_hour(p_store, p_paid_at, 0, 0, 0, 0, p_quantity, 0, 0);
	INSERT INTO analytics_product_days AS d (store_id, day, product_key, product_id, name, category, quantity, revenue_ore)
	SELECT s.id, (p_paid_at AT TIME ZONE s.timezone)::date, coalesce(p_product::text, p_name), p_product, p_name,
		(SELECT category FROM products WHERE id = p_product), p_quantity, p_total
	FROM stores s WHERE s.id = p_store
	ON CONFLICT (store_id, day, product_key) DO UPDATE SET
		name = excluded.name,
		category = excluded.category,
		quantity = d.quantity + excluded.quantity,
		revenue_ore = d.revenue_ore + excluded.revenue_ore;
	INSERT INTO analytics_product_months AS d (store_id, month, product_key, product_id, name, category, quantity, revenue_ore)
	SELECT s.id, date_trunc('month', p_paid_at AT TIME ZONE s.timezone)::date, coalesce(p_product::text, p_name), p_product, p_name,
		(SELECT category FROM products WHERE id = p_product), p_quantity, p_total
	FROM stores s WHERE s.id = p_store
	ON CONFLICT (store_id, month, product_key) DO UPDATE SET
		name = excluded.name,
		category = excluded.category,
		quantity = d.quantity + excluded.quantity,
		revenue_ore = d.revenue_ore + excluded.revenue_ore;
END $$;
--> statement-breakpoint
-- An order counts from the moment it is paid, in the hour and day it was paid.
CREATE FUNCTION analytics_order_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	was_counted boolean := TG_OP = 'UPDATE' AND OLD.state = 'paid' AND OLD.store_id IS NOT NULL AND OLD.paid_at IS NOT NULL;
	is_counted boolean := NEW.state = 'paid' AND NEW.store_id IS NOT NULL AND NEW.paid_at IS NOT NULL;
	v_items integer;
BEGIN
	IF was_counted AND is_counted AND OLD.store_id = NEW.store_id AND OLD.paid_at = NEW.paid_at THEN
		-- A paid order's total moved (items added at a spot check): the difference counts where the order does;
		-- the added lines count through their own trigger.
		IF NEW.total_ore <> OLD.total_ore OR NEW.vat_ore <> OLD.vat_ore THEN
			PERFORM analytics_bump_hour(NEW.store_id, NEW.paid_at, 0, 0, NEW.total_ore - OLD.total_ore,
				NEW.vat_ore - OLD.vat_ore, 0, 0, 0);
		END IF;
		RETURN NULL;
	END IF;
	IF was_counted THEN
		v_items := analytics_bump_products(OLD.id, OLD.store_id, OLD.paid_at, -1);
		PERFORM analytics_bump_hour(OLD.store_id, OLD.paid_at, 0, -1, -OLD.total_ore, -OLD.vat_ore, v_items, 0, 0);
	END IF;
	IF is_counted THEN
		v_items := analytics_bump_products(NEW.id, NEW.store_id, NEW.paid_at, 1);
		PERFORM analytics_bump_hour(NEW.store_id, NEW.paid_at, 0, 1, NEW.total_ore, NEW.vat_ore, v_items, 0, 0);
	END IF;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER analytics_orders AFTER INSERT OR UPDATE OF state, store_id, paid_at, total_ore, vat_ore ON orders
FOR EACH ROW EXECUTE FUNCTION analytics_order_changed();
--> statement-breakpoint
-- Lines added to (or changed on) an order that is already paid: spot-check additions.
-- Lines of an order not yet paid count when it is paid (analytics_order_changed).
CREATE FUNCTION analytics_order_line_changed() RETURNS trigger LANGUAGE plpgsql AS $$
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
		PERFORM analytics_bump_line(o.store_id, o.paid_at, OLD.product_id, OLD.name, -OLD.quantity, -OLD.total_ore);
	END IF;
	IF TG_OP <> 'DELETE' THEN
		PERFORM analytics_bump_line(o.store_id, o.paid_at, NEW.product_id, NEW.name, NEW.quantity, NEW.total_ore);
	END IF;
	RETURN NULL;
END $$;
--> statement-breakpoint
-- Not on product_id: a deleted product's past sales stay under its id rather than moving every line it ever had.
CREATE TRIGGER analytics_order_lines AFTER INSERT OR DELETE OR UPDATE OF quantity, total_ore ON order_lines
FOR EACH ROW EXECUTE FUNCTION analytics_order_line_changed();
--> statement-breakpoint
-- An entry is a door opened for a visit, in the hour it opened.
CREATE FUNCTION analytics_session_entered() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF NEW.door_opened_at IS NOT NULL AND (TG_OP = 'INSERT' OR OLD.door_opened_at IS NULL) THEN
		PERFORM analytics_bump_hour(NEW.store_id, NEW.door_opened_at, 1, 0, 0, 0, 0, 0, 0);
	END IF;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER analytics_shopping_sessions AFTER INSERT OR UPDATE OF door_opened_at ON shopping_sessions
FOR EACH ROW EXECUTE FUNCTION analytics_session_entered();
--> statement-breakpoint
-- A refund counts in the hour it was asked for while it is pending or succeeded; when it fails
-- (its amount is free again) it is taken back out of that same hour.
CREATE FUNCTION analytics_refund_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	v_store uuid;
	v_old_n integer := 0;
	v_old_ore bigint := 0;
	v_new_n integer := 0;
	v_new_ore bigint := 0;
	v_at timestamptz;
BEGIN
	IF TG_OP <> 'INSERT' AND OLD.state <> 'failed' THEN
		v_old_n := 1;
		v_old_ore := OLD.amount_ore;
	END IF;
	IF TG_OP <> 'DELETE' AND NEW.state <> 'failed' THEN
		v_new_n := 1;
		v_new_ore := NEW.amount_ore;
	END IF;
	IF v_new_n = v_old_n AND v_new_ore = v_old_ore THEN
		RETURN NULL;
	END IF;
	IF TG_OP = 'DELETE' THEN
		SELECT store_id INTO v_store FROM orders WHERE id = OLD.order_id;
		v_at := OLD.created_at;
	ELSE
		SELECT store_id INTO v_store FROM orders WHERE id = NEW.order_id;
		v_at := NEW.created_at;
	END IF;
	IF v_store IS NOT NULL THEN
		PERFORM analytics_bump_hour(v_store, v_at, 0, 0, 0, 0, 0, v_new_n - v_old_n, v_new_ore - v_old_ore);
	END IF;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER analytics_refunds AFTER INSERT OR DELETE OR UPDATE OF state, amount_ore ON refunds
FOR EACH ROW EXECUTE FUNCTION analytics_refund_changed();
--> statement-breakpoint
-- The figures of everything that happened before this migration; the bench runs the same statements
-- after loading its data with the triggers off (bench/analytics.ts reads them from this file).
-- analytics-backfill:start
INSERT INTO analytics_store_hours (store_id, hour, entries, purchases, revenue_ore, vat_ore, items, refunds, refunds_ore)
SELECT store_id, hour, sum(entries), sum(purchases), sum(revenue_ore), sum(vat_ore), sum(items), sum(refunds), sum(refunds_ore)
FROM (
	SELECT ss.store_id, date_trunc('hour', ss.door_opened_at AT TIME ZONE s.timezone) AS hour,
		1 AS entries, 0 AS purchases, 0::bigint AS revenue_ore, 0::bigint AS vat_ore, 0 AS items, 0 AS refunds, 0::bigint AS refunds_ore
	FROM shopping_sessions ss JOIN stores s ON s.id = ss.store_id
	WHERE ss.door_opened_at IS NOT NULL
	UNION ALL
	SELECT o.store_id, date_trunc('hour', o.paid_at AT TIME ZONE s.timezone), 0, 1, o.total_ore, o.vat_ore, 0, 0, 0
	FROM orders o JOIN stores s ON s.id = o.store_id
	WHERE o.state = 'paid' AND o.paid_at IS NOT NULL
	UNION ALL
	SELECT o.store_id, date_trunc('hour', o.paid_at AT TIME ZONE s.timezone), 0, 0, 0, 0, l.quantity, 0, 0
	FROM order_lines l JOIN orders o ON o.id = l.order_id JOIN stores s ON s.id = o.store_id
	WHERE o.state = 'paid' AND o.paid_at IS NOT NULL
	UNION ALL
	SELECT o.store_id, date_trunc('hour', r.created_at AT TIME ZONE s.timezone), 0, 0, 0, 0, 0, 1, r.amount_ore
	FROM refunds r JOIN orders o ON o.id = r.order_id JOIN stores s ON s.id = o.store_id
	WHERE r.state <> 'failed'
) counted
GROUP BY store_id, hour;
--> statement-breakpoint
INSERT INTO analytics_product_days (store_id, day, product_key, product_id, name, category, quantity, revenue_ore)
SELECT o.store_id, (o.paid_at AT TIME ZONE s.timezone)::date, coalesce(l.product_id::text, l.name), l.product_id,
	max(l.name), max(p.category), sum(l.quantity), sum(l.total_ore)
FROM order_lines l
JOIN orders o ON o.id = l.order_id
JOIN stores s ON s.id = o.store_id
LEFT JOIN products p ON p.id = l.product_id
WHERE o.state = 'paid' AND o.paid_at IS NOT NULL
GROUP BY 1, 2, 3, 4;
--> statement-breakpoint
INSERT INTO analytics_product_months (store_id, month, product_key, product_id, name, category, quantity, revenue_ore)
SELECT store_id, date_trunc('month', day)::date, product_key, product_id, max(name), max(category), sum(quantity), sum(revenue_ore)
FROM analytics_product_days
GROUP BY 1, 2, 3, 4;
-- analytics-backfill:end
