ALTER TABLE "bookings" ADD COLUMN "revision" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "calendar" text;--> statement-breakpoint
-- Counts every change a diner's calendar shows (time, party, note, status) on whichever path makes
-- it: the diner's change or cancellation, the store's, an expiry.
CREATE FUNCTION bookings_count_revision() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.starts_at IS DISTINCT FROM OLD.starts_at OR NEW.ends_at IS DISTINCT FROM OLD.ends_at
     OR NEW.party_size IS DISTINCT FROM OLD.party_size OR NEW.note IS DISTINCT FROM OLD.note
     OR NEW.status IS DISTINCT FROM OLD.status THEN
    NEW.revision := OLD.revision + 1;
  END IF;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER bookings_revision BEFORE UPDATE ON "bookings" FOR EACH ROW EXECUTE FUNCTION bookings_count_revision();
