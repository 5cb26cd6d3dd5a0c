ALTER TABLE "cameras" ADD COLUMN "reported_resolution" text;--> statement-breakpoint
ALTER TABLE "cameras" ADD COLUMN "reported_fps" integer;