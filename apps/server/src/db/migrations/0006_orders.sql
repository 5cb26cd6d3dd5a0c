CREATE TABLE "order_lines" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"product_id" uuid,
	"name" text NOT NULL,
	"quantity" integer NOT NULL,
	"unit_price_ore" integer NOT NULL,
	"vat_rate_bp" integer NOT NULL,
	"total_ore" integer NOT NULL,
	"weight_grams" integer
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"session_id" uuid,
	"customer_id" uuid,
	"store_id" uuid,
	"state" text DEFAULT 'awaiting_payment' NOT NULL,
	"receipt_number" integer,
	"attempt" integer DEFAULT 1 NOT NULL,
	"total_ore" integer NOT NULL,
	"vat_ore" integer NOT NULL,
	"currency" text DEFAULT 'SEK' NOT NULL,
	"store_name" text NOT NULL,
	"store_legal_name" text,
	"store_organization_number" text,
	"store_address" text,
	"payment_intent_id" text,
	"card_brand" text,
	"card_last4" text,
	"failure_code" text,
	"charge_started_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"paid_at" timestamp with time zone,
	CONSTRAINT "orders_total_check" CHECK ("orders"."total_ore" >= 0)
);
--> statement-breakpoint
CREATE TABLE "store_receipt_counters" (
	"store_id" uuid PRIMARY KEY NOT NULL,
	"last_number" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "payment_customer_id" text;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "payment_method_id" text;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "card_brand" text;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "card_last4" text;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "face_consent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "order_lines" ADD CONSTRAINT "order_lines_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_lines" ADD CONSTRAINT "order_lines_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_session_id_shopping_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."shopping_sessions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_receipt_counters" ADD CONSTRAINT "store_receipt_counters_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "order_lines_order_idx" ON "order_lines" USING btree ("order_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_session_idx" ON "orders" USING btree ("session_id");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_store_receipt_idx" ON "orders" USING btree ("store_id","receipt_number");--> statement-breakpoint
CREATE INDEX "orders_customer_idx" ON "orders" USING btree ("customer_id","created_at");