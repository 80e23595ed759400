ALTER TYPE "public"."booking_kind" ADD VALUE 'walk_in';--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "marked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "staff_audit" ADD COLUMN "before" jsonb;--> statement-breakpoint
ALTER TABLE "staff_audit" ADD COLUMN "after" jsonb;