ALTER TABLE "products" ADD COLUMN "net_content_milli" integer;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "net_content_unit" text;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_net_content_check" CHECK (("products"."net_content_milli" is null) = ("products"."net_content_unit" is null) and "products"."net_content_milli" > 0
        and "products"."net_content_unit" in ('g', 'kg', 'ml', 'l', 'st'));