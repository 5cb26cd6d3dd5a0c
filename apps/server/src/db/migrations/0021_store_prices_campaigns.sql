CREATE TABLE "campaigns" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"product_id" uuid NOT NULL,
	"store_id" uuid,
	"price_ore" integer NOT NULL,
	"starts_on" date NOT NULL,
	"ends_on" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "campaigns_price_check" CHECK ("campaigns"."price_ore" >= 0),
	CONSTRAINT "campaigns_days_check" CHECK ("campaigns"."ends_on" >= "campaigns"."starts_on")
);
--> statement-breakpoint
CREATE TABLE "store_prices" (
	"store_id" uuid NOT NULL,
	"product_id" uuid NOT NULL,
	"price_ore" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "store_prices_store_id_product_id_pk" PRIMARY KEY("store_id","product_id"),
	CONSTRAINT "store_prices_price_check" CHECK ("store_prices"."price_ore" >= 0)
);
--> statement-breakpoint
ALTER TABLE "cart_items" ADD COLUMN "ordinary_unit_ore" integer;--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "ordinary_unit_ore" integer;--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_prices" ADD CONSTRAINT "store_prices_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_prices" ADD CONSTRAINT "store_prices_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "campaigns_product_idx" ON "campaigns" USING btree ("product_id","ends_on");--> statement-breakpoint
CREATE INDEX "campaigns_store_idx" ON "campaigns" USING btree ("store_id");--> statement-breakpoint
CREATE INDEX "store_prices_product_idx" ON "store_prices" USING btree ("product_id");