ALTER TABLE "cart_items" ADD COLUMN "member_unit_ore" integer;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "members_only" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "members_only" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "member_since" timestamp with time zone;