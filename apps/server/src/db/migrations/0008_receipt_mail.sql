CREATE TABLE "receipt_mails" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"to_address" text NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "receipt_mails" ADD CONSTRAINT "receipt_mails_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "receipt_mails_order_idx" ON "receipt_mails" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "receipt_mails_due_idx" ON "receipt_mails" USING btree ("next_attempt_at") WHERE "receipt_mails"."state" = 'pending';