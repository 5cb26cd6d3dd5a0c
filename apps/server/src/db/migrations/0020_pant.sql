CREATE TABLE "pant_amounts" (
	"country" text NOT NULL,
	"code" text NOT NULL,
	"amount_ore" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pant_amounts_country_code_pk" PRIMARY KEY("country","code"),
	CONSTRAINT "pant_amounts_code_check" CHECK ("pant_amounts"."code" in ('can', 'pet_small', 'pet_large', 'can_1kr', 'pet_small_1kr', 'pet_large_2kr')),
	CONSTRAINT "pant_amounts_amount_check" CHECK ("pant_amounts"."amount_ore" between 0 and 100000)
);
--> statement-breakpoint
INSERT INTO "pant_amounts" ("country", "code", "amount_ore") VALUES
	('SE', 'can', 200),
	('SE', 'pet_small', 200),
	('SE', 'pet_large', 300),
	('SE', 'can_1kr', 100),
	('SE', 'pet_small_1kr', 100),
	('SE', 'pet_large_2kr', 200);--> statement-breakpoint
ALTER TABLE "cart_items" ADD COLUMN "pant_ore" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "pant_ore" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "pant_code" text;--> statement-breakpoint
ALTER TABLE "cart_items" ADD CONSTRAINT "cart_items_pant_check" CHECK ("cart_items"."pant_ore" >= 0);--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_pant_code_check" CHECK ("products"."pant_code" is null or "products"."pant_code" in ('can', 'pet_small', 'pet_large', 'can_1kr', 'pet_small_1kr', 'pet_large_2kr'));