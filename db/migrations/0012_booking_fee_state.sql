CREATE TYPE "public"."fee_state" AS ENUM('due', 'waived', 'collected');--> statement-breakpoint
CREATE TABLE "booking_fees" (
	"booking_id" integer PRIMARY KEY NOT NULL,
	"state" "fee_state" DEFAULT 'due' NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer
);
--> statement-breakpoint
ALTER TABLE "booking_fees" ADD CONSTRAINT "booking_fees_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "booking_fees" ADD CONSTRAINT "booking_fees_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;