CREATE TABLE "offer_products" (
	"offer_id" uuid NOT NULL,
	"product_id" uuid NOT NULL,
	CONSTRAINT "offer_products_offer_id_product_id_pk" PRIMARY KEY("offer_id","product_id")
);
--> statement-breakpoint
CREATE TABLE "offers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"label" text NOT NULL,
	"kind" text NOT NULL,
	"buy" integer NOT NULL,
	"amount_ore" integer,
	"store_id" uuid,
	"starts_on" date NOT NULL,
	"ends_on" date NOT NULL,
	"limit_per_visit" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "offers_kind_check" CHECK ("offers"."kind" in ('one_free', 'amount')),
	CONSTRAINT "offers_buy_check" CHECK ("offers"."buy" between 2 and 20),
	CONSTRAINT "offers_amount_check" CHECK (("offers"."kind" = 'amount') = ("offers"."amount_ore" is not null) and ("offers"."amount_ore" is null or "offers"."amount_ore" >= 0)),
	CONSTRAINT "offers_days_check" CHECK ("offers"."ends_on" >= "offers"."starts_on"),
	CONSTRAINT "offers_limit_check" CHECK ("offers"."limit_per_visit" is null or "offers"."limit_per_visit" > 0)
);
--> statement-breakpoint
ALTER TABLE "offer_products" ADD CONSTRAINT "offer_products_offer_id_offers_id_fk" FOREIGN KEY ("offer_id") REFERENCES "public"."offers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offer_products" ADD CONSTRAINT "offer_products_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offers" ADD CONSTRAINT "offers_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "offer_products_product_idx" ON "offer_products" USING btree ("product_id");--> statement-breakpoint
CREATE INDEX "offers_store_idx" ON "offers" USING btree ("store_id");--> statement-breakpoint
CREATE INDEX "offers_days_idx" ON "offers" USING btree ("ends_on");