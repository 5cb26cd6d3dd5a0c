CREATE TABLE "pant_vouchers" (
	"code" text PRIMARY KEY NOT NULL,
	"amount_ore" integer NOT NULL,
	"session_id" uuid,
	"store_id" uuid,
	"order_id" uuid,
	"scan_id" uuid,
	"scanned_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pant_vouchers_amount_check" CHECK ("pant_vouchers"."amount_ore" > 0)
);
--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_refunded_check";--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "voucher_ore" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "pant_vouchers" ADD CONSTRAINT "pant_vouchers_session_id_shopping_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."shopping_sessions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pant_vouchers" ADD CONSTRAINT "pant_vouchers_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pant_vouchers" ADD CONSTRAINT "pant_vouchers_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pant_vouchers_session_idx" ON "pant_vouchers" USING btree ("session_id");--> statement-breakpoint
CREATE INDEX "pant_vouchers_order_idx" ON "pant_vouchers" USING btree ("order_id");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_voucher_check" CHECK ("orders"."voucher_ore" = 0 OR ("orders"."voucher_ore" > 0 AND "orders"."voucher_ore" < "orders"."total_ore"));--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_refunded_check" CHECK ("orders"."refunded_ore" >= 0 AND "orders"."refunded_ore" <= "orders"."total_ore" - "orders"."voucher_ore");