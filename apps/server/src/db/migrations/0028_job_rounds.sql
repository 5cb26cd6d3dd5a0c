CREATE TABLE "job_rounds" (
	"job" text PRIMARY KEY NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"rounds" integer DEFAULT 1 NOT NULL
);
