DROP INDEX "receipt_mails_order_idx";--> statement-breakpoint
ALTER TABLE "receipt_mails" ADD COLUMN "kind" text DEFAULT 'receipt' NOT NULL;--> statement-breakpoint
ALTER TABLE "receipt_mails" ADD COLUMN "refund_id" uuid;--> statement-breakpoint
ALTER TABLE "receipt_mails" ADD CONSTRAINT "receipt_mails_refund_id_refunds_id_fk" FOREIGN KEY ("refund_id") REFERENCES "public"."refunds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "receipt_mails_refund_idx" ON "receipt_mails" USING btree ("refund_id");--> statement-breakpoint
CREATE UNIQUE INDEX "receipt_mails_order_idx" ON "receipt_mails" USING btree ("order_id") WHERE "receipt_mails"."kind" = 'receipt';