CREATE TYPE "public"."late_notice" AS ENUM('on_way', 'late_10', 'late_15');--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "late_notice" "late_notice";--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "late_notice_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "stores" ADD COLUMN "grace_minutes" integer DEFAULT 15 NOT NULL;--> statement-breakpoint
ALTER TABLE "stores" ADD COLUMN "auto_release" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "stores" ADD CONSTRAINT "stores_grace_check" CHECK ("stores"."grace_minutes" between 0 and 60);