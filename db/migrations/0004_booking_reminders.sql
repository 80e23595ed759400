ALTER TABLE "bookings" ADD COLUMN "reminder_token_hash" text;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "locale" text DEFAULT 'ja' NOT NULL;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "remind_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "bookings_remind_idx" ON "bookings" USING btree ("remind_at") WHERE "bookings"."remind_at" is not null;