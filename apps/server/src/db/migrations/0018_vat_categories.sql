CREATE TABLE "vat_rates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"country" text NOT NULL,
	"category" text NOT NULL,
	"rate_bp" integer NOT NULL,
	"valid_from" date NOT NULL,
	"valid_to" date,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "vat_rates_category_check" CHECK ("vat_rates"."category" in ('standard', 'food', 'alcoholic_drink', 'books_newspapers', 'exempt')),
	CONSTRAINT "vat_rates_rate_check" CHECK ("vat_rates"."rate_bp" between 0 and 10000),
	CONSTRAINT "vat_rates_days_check" CHECK ("vat_rates"."valid_to" is null or "vat_rates"."valid_to" >= "vat_rates"."valid_from")
);
--> statement-breakpoint
INSERT INTO "vat_rates" ("country", "category", "rate_bp", "valid_from", "valid_to") VALUES
	('SE', 'standard', 2500, '1990-07-01', NULL),
	('SE', 'alcoholic_drink', 2500, '1990-07-01', NULL),
	('SE', 'food', 1200, '1996-01-01', '2026-03-31'),
	('SE', 'food', 600, '2026-04-01', '2027-12-31'),
	('SE', 'food', 1200, '2028-01-01', NULL),
	('SE', 'books_newspapers', 600, '2002-01-01', NULL),
	('SE', 'exempt', 0, '1990-07-01', NULL);--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "vat_category" text DEFAULT 'standard' NOT NULL;--> statement-breakpoint
UPDATE "products" SET "vat_category" = CASE
	WHEN "vat_rate_bp" = 0 THEN 'exempt'
	WHEN "vat_rate_bp" IN (600, 1200) AND lower("name" || ' ' || coalesce("category", '')) ~ '(tidning|tidskrift|magasin|bok|böcker|newspaper|magazine|book)' THEN 'books_newspapers'
	WHEN "vat_rate_bp" IN (600, 1200) THEN 'food'
	WHEN lower("name") ~ '(folköl|lättöl|alkoholfri|alcohol-free|non-alcoholic|(^|[^0-9])([0-2][,.][0-9]|3[,.][0-5]) ?%)' THEN 'food'
	WHEN "vat_rate_bp" = 2500 AND lower("name" || ' ' || coalesce("category", '')) ~ '(starköl|öl|vin|cider|sprit|whisky|vodka|beer|wine|spirits)' THEN 'alcoholic_drink'
	ELSE 'standard'
END;--> statement-breakpoint
UPDATE "settings" SET "key" = 'default_vat_category', "description" = 'VAT category of a product created without one',
	"value" = to_jsonb(CASE WHEN "value"::text IN ('0.06', '0.12') THEN 'food' WHEN "value"::text IN ('0', '0.0') THEN 'exempt' ELSE 'standard' END)
	WHERE "category" = 'product' AND "key" = 'default_vat_rate';--> statement-breakpoint
UPDATE "stores" SET "custom_settings" = jsonb_set("custom_settings" #- '{product,default_vat_rate}', '{product,default_vat_category}',
	to_jsonb(CASE WHEN "custom_settings" #>> '{product,default_vat_rate}' IN ('0.06', '0.12') THEN 'food' WHEN "custom_settings" #>> '{product,default_vat_rate}' IN ('0', '0.0') THEN 'exempt' ELSE 'standard' END))
	WHERE "custom_settings" #> '{product,default_vat_rate}' IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "vat_rates_period_idx" ON "vat_rates" USING btree ("country","category","valid_from");--> statement-breakpoint
ALTER TABLE "products" DROP COLUMN "vat_rate_bp";--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_vat_category_check" CHECK ("products"."vat_category" in ('standard', 'food', 'alcoholic_drink', 'books_newspapers', 'exempt'));