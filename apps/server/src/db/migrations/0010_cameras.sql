CREATE TABLE "camera_snapshots" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"camera_id" uuid NOT NULL,
	"content_type" text NOT NULL,
	"image" "bytea" NOT NULL,
	"taken_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "camera_status_changes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"camera_id" uuid,
	"system_id" uuid,
	"status" text NOT NULL,
	"message" text,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "camera_systems" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"brand" text NOT NULL,
	"status" text DEFAULT 'unknown' NOT NULL,
	"connection_type" text NOT NULL,
	"host" text NOT NULL,
	"port" integer NOT NULL,
	"username" text,
	"password_sealed" text,
	"api_endpoint" text,
	"store_id" uuid,
	"notes" text,
	"has_ptz" boolean,
	"last_checked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cameras" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"camera_index" integer DEFAULT 1 NOT NULL,
	"location_zone" text NOT NULL,
	"stream_url" text,
	"resolution" text NOT NULL,
	"fps" integer NOT NULL,
	"camera_system_id" uuid,
	"store_id" uuid,
	"is_active" boolean DEFAULT true NOT NULL,
	"is_ai_enabled" boolean DEFAULT true NOT NULL,
	"status" text DEFAULT 'unknown' NOT NULL,
	"has_ptz" boolean DEFAULT false NOT NULL,
	"last_checked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "camera_snapshots" ADD CONSTRAINT "camera_snapshots_camera_id_cameras_id_fk" FOREIGN KEY ("camera_id") REFERENCES "public"."cameras"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "camera_status_changes" ADD CONSTRAINT "camera_status_changes_camera_id_cameras_id_fk" FOREIGN KEY ("camera_id") REFERENCES "public"."cameras"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "camera_status_changes" ADD CONSTRAINT "camera_status_changes_system_id_camera_systems_id_fk" FOREIGN KEY ("system_id") REFERENCES "public"."camera_systems"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "camera_systems" ADD CONSTRAINT "camera_systems_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cameras" ADD CONSTRAINT "cameras_camera_system_id_camera_systems_id_fk" FOREIGN KEY ("camera_system_id") REFERENCES "public"."camera_systems"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cameras" ADD CONSTRAINT "cameras_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "camera_snapshots_camera_idx" ON "camera_snapshots" USING btree ("camera_id","taken_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "camera_status_changes_camera_idx" ON "camera_status_changes" USING btree ("camera_id","changed_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "camera_status_changes_system_idx" ON "camera_status_changes" USING btree ("system_id","changed_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "camera_systems_store_idx" ON "camera_systems" USING btree ("store_id");--> statement-breakpoint
CREATE INDEX "cameras_system_idx" ON "cameras" USING btree ("camera_system_id");--> statement-breakpoint
CREATE INDEX "cameras_store_idx" ON "cameras" USING btree ("store_id");