CREATE TABLE "face_descriptors" (
	"session_id" uuid PRIMARY KEY NOT NULL,
	"sealed" text NOT NULL,
	"model" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "face_descriptors" ADD CONSTRAINT "face_descriptors_session_id_shopping_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."shopping_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- A visit's face descriptor lives while the shopper is in the store: it goes when the visit leaves in_store and
-- charging, or passes the exit gate, whichever code moves it (the abandoned sweep is one statement of SQL).
CREATE FUNCTION face_descriptor_visit_left() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM face_descriptors WHERE session_id = NEW.id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER face_descriptor_visit_left AFTER UPDATE OF state, exited_at ON shopping_sessions
FOR EACH ROW WHEN (NEW.state NOT IN ('in_store', 'charging') OR NEW.exited_at IS NOT NULL)
EXECUTE FUNCTION face_descriptor_visit_left();--> statement-breakpoint
-- Consent withdrawn: every descriptor of the shopper's visits goes with it, in the same transaction.
CREATE FUNCTION face_descriptor_consent_withdrawn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM face_descriptors d USING shopping_sessions s WHERE d.session_id = s.id AND s.customer_id = NEW.id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER face_descriptor_consent_withdrawn AFTER UPDATE OF face_consent_at ON customers
FOR EACH ROW WHEN (NEW.face_consent_at IS NULL AND OLD.face_consent_at IS NOT NULL)
EXECUTE FUNCTION face_descriptor_consent_withdrawn();
