ALTER TABLE "bookings" ADD COLUMN "fee_starts_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "fee_party_size" integer;