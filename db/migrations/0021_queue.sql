CREATE TYPE "public"."queue_mode" AS ENUM('when_full', 'always');--> statement-breakpoint
CREATE TYPE "public"."queue_state" AS ENUM('waiting', 'called', 'seated', 'no_show', 'canceled', 'expired');--> statement-breakpoint
CREATE TABLE "queue_entries" (
	"id" serial PRIMARY KEY NOT NULL,
	"store_id" integer NOT NULL,
	"user_id" integer,
	"guest_token_hash" text,
	"device_hash" text,
	"party_size" integer NOT NULL,
	"name" text NOT NULL,
	"phone" text,
	"email" text,
	"locale" text DEFAULT 'ja' NOT NULL,
	"state" "queue_state" DEFAULT 'waiting' NOT NULL,
	"joined_at" timestamp with time zone DEFAULT now() NOT NULL,
	"called_at" timestamp with time zone,
	"claim_deadline" timestamp with time zone,
	"seated_at" timestamp with time zone,
	"no_show_at" timestamp with time zone,
	"canceled_at" timestamp with time zone,
	"expired_at" timestamp with time zone,
	"booking_id" integer,
	CONSTRAINT "queue_entries_token_key" UNIQUE("guest_token_hash"),
	CONSTRAINT "queue_entries_party_check" CHECK ("queue_entries"."party_size" > 0),
	CONSTRAINT "queue_entries_contact_check" CHECK ("queue_entries"."phone" is not null or "queue_entries"."email" is not null),
	CONSTRAINT "queue_entries_owner_check" CHECK ("queue_entries"."user_id" is not null or "queue_entries"."guest_token_hash" is not null)
);
--> statement-breakpoint
ALTER TABLE "stores" ADD COLUMN "queue_claim_minutes" integer DEFAULT 5 NOT NULL;--> statement-breakpoint
ALTER TABLE "stores" ADD COLUMN "queue_mode" "queue_mode" DEFAULT 'when_full' NOT NULL;--> statement-breakpoint
ALTER TABLE "queue_entries" ADD CONSTRAINT "queue_entries_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_entries" ADD CONSTRAINT "queue_entries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_entries" ADD CONSTRAINT "queue_entries_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "queue_entries_store_idx" ON "queue_entries" USING btree ("store_id","state","joined_at");--> statement-breakpoint
CREATE INDEX "queue_entries_user_idx" ON "queue_entries" USING btree ("user_id","state");--> statement-breakpoint
CREATE INDEX "queue_entries_device_idx" ON "queue_entries" USING btree ("device_hash","state");--> statement-breakpoint
CREATE INDEX "queue_entries_deadline_idx" ON "queue_entries" USING btree ("claim_deadline") WHERE "queue_entries"."state" = 'called';--> statement-breakpoint
ALTER TABLE "stores" ADD CONSTRAINT "stores_queue_claim_check" CHECK ("stores"."queue_claim_minutes" between 1 and 30);