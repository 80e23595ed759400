CREATE TABLE "watch_holds" (
	"id" serial PRIMARY KEY NOT NULL,
	"watch_id" integer NOT NULL,
	"store_id" integer NOT NULL,
	"table_id" integer NOT NULL,
	"party_size" integer NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"state" text DEFAULT 'offered' NOT NULL,
	"token_hash" text NOT NULL,
	"booking_id" integer,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "watch_holds" ADD CONSTRAINT "watch_holds_watch_id_watches_id_fk" FOREIGN KEY ("watch_id") REFERENCES "public"."watches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watch_holds" ADD CONSTRAINT "watch_holds_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watch_holds" ADD CONSTRAINT "watch_holds_table_id_store_tables_id_fk" FOREIGN KEY ("table_id") REFERENCES "public"."store_tables"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watch_holds" ADD CONSTRAINT "watch_holds_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "watch_holds_watch_start_idx" ON "watch_holds" USING btree ("watch_id","store_id","starts_at");--> statement-breakpoint
CREATE INDEX "watch_holds_open_idx" ON "watch_holds" USING btree ("store_id","expires_at") WHERE "watch_holds"."state" = 'offered';