CREATE TABLE "campaign_banners" (
	"id" serial PRIMARY KEY NOT NULL,
	"store_id" integer NOT NULL,
	"title" text NOT NULL,
	"body" text DEFAULT '' NOT NULL,
	"link_to_store" boolean DEFAULT false NOT NULL,
	"starts_on" date NOT NULL,
	"ends_on" date NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "campaign_banners_days_check" CHECK ("campaign_banners"."ends_on" >= "campaign_banners"."starts_on")
);
--> statement-breakpoint
ALTER TABLE "campaign_banners" ADD CONSTRAINT "campaign_banners_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_banners" ADD CONSTRAINT "campaign_banners_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "campaign_banners_days_idx" ON "campaign_banners" USING btree ("ends_on","starts_on");--> statement-breakpoint
CREATE INDEX "campaign_banners_store_idx" ON "campaign_banners" USING btree ("store_id","ends_on");