ALTER TABLE "shopping_sessions" ADD COLUMN "spot_check_drawn_at" timestamp with time zone;--> statement-breakpoint
UPDATE "shopping_sessions" SET "spot_check_drawn_at" = "checked_out_at" WHERE "checked_out_at" IS NOT NULL;
