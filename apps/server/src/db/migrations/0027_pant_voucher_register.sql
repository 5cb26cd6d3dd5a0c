CREATE TABLE "issued_pant_vouchers" (
	"code" text PRIMARY KEY NOT NULL,
	"amount_ore" integer NOT NULL,
	"store_id" uuid NOT NULL,
	"device_key_id" uuid,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "issued_pant_vouchers_amount_check" CHECK ("issued_pant_vouchers"."amount_ore" > 0)
);
--> statement-breakpoint
ALTER TABLE "issued_pant_vouchers" ADD CONSTRAINT "issued_pant_vouchers_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "issued_pant_vouchers" ADD CONSTRAINT "issued_pant_vouchers_device_key_id_store_device_keys_id_fk" FOREIGN KEY ("device_key_id") REFERENCES "public"."store_device_keys"("id") ON DELETE set null ON UPDATE no action;