CREATE TABLE "exit_token_uses" (
	"nonce" text PRIMARY KEY NOT NULL,
	"session_id" uuid,
	"used_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "exit_token_uses" ADD CONSTRAINT "exit_token_uses_session_id_shopping_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."shopping_sessions"("id") ON DELETE cascade ON UPDATE no action;