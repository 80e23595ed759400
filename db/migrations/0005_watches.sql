CREATE TABLE "watch_notifications" (
	"watch_id" integer NOT NULL,
	"store_id" integer NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "watch_notifications_watch_id_store_id_starts_at_pk" PRIMARY KEY("watch_id","store_id","starts_at")
);
--> statement-breakpoint
CREATE TABLE "watches" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer,
	"email" text NOT NULL,
	"device_token_hash" text,
	"confirm_token_hash" text,
	"confirmed_at" timestamp with time zone,
	"store_id" integer,
	"area_id" integer,
	"genre" text,
	"keyword" text,
	"party_size" integer NOT NULL,
	"starts_from" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"locale" text DEFAULT 'ja' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"cancelled_at" timestamp with time zone,
	"last_mailed_at" timestamp with time zone,
	CONSTRAINT "watches_target_check" CHECK ("watches"."store_id" is not null or "watches"."area_id" is not null),
	CONSTRAINT "watches_window_check" CHECK ("watches"."ends_at" > "watches"."starts_from")
);
--> statement-breakpoint
ALTER TABLE "watch_notifications" ADD CONSTRAINT "watch_notifications_watch_id_watches_id_fk" FOREIGN KEY ("watch_id") REFERENCES "public"."watches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watches" ADD CONSTRAINT "watches_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watches" ADD CONSTRAINT "watches_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watches" ADD CONSTRAINT "watches_area_id_areas_id_fk" FOREIGN KEY ("area_id") REFERENCES "public"."areas"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "watches_user_idx" ON "watches" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "watches_email_idx" ON "watches" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "watches_active_idx" ON "watches" USING btree ("ends_at") WHERE "watches"."cancelled_at" is null;