CREATE TABLE "price_group_prices" (
	"group_id" uuid NOT NULL,
	"product_id" uuid NOT NULL,
	"price_ore" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "price_group_prices_group_id_product_id_pk" PRIMARY KEY("group_id","product_id"),
	CONSTRAINT "price_group_prices_price_check" CHECK ("price_group_prices"."price_ore" >= 0)
);
--> statement-breakpoint
CREATE TABLE "price_groups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "stores" ADD COLUMN "price_group_id" uuid;--> statement-breakpoint
ALTER TABLE "price_group_prices" ADD CONSTRAINT "price_group_prices_group_id_price_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."price_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "price_group_prices" ADD CONSTRAINT "price_group_prices_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "price_group_prices_product_idx" ON "price_group_prices" USING btree ("product_id");--> statement-breakpoint
CREATE UNIQUE INDEX "price_groups_name_idx" ON "price_groups" USING btree (lower("name"));--> statement-breakpoint
ALTER TABLE "stores" ADD CONSTRAINT "stores_price_group_id_price_groups_id_fk" FOREIGN KEY ("price_group_id") REFERENCES "public"."price_groups"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stores_price_group_idx" ON "stores" USING btree ("price_group_id");