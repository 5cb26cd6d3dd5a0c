CREATE TABLE "store_list_changes" (
	"weight" bigint DEFAULT 1 NOT NULL
);
--> statement-breakpoint
-- One row per statement that writes a store or its modules, in its own transaction: the sum of the weights rises at
-- its commit. Only inserts, so two writers never wait for each other here.
CREATE FUNCTION store_list_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO store_list_changes DEFAULT VALUES;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER store_list_stores AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON stores
FOR EACH STATEMENT EXECUTE FUNCTION store_list_changed();--> statement-breakpoint
CREATE TRIGGER store_list_modules AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON store_modules
FOR EACH STATEMENT EXECUTE FUNCTION store_list_changed();
