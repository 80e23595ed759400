CREATE TYPE "public"."attendance" AS ENUM('arrived', 'no_show');--> statement-breakpoint
CREATE TYPE "public"."booking_kind" AS ENUM('booking', 'block');--> statement-breakpoint
CREATE TYPE "public"."user_role" AS ENUM('diner', 'staff');--> statement-breakpoint
CREATE TABLE "staff_audit" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer,
	"actor_email" text NOT NULL,
	"store_id" integer,
	"action" text NOT NULL,
	"target_id" integer,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "staff_stores" (
	"user_id" integer NOT NULL,
	"store_id" integer NOT NULL,
	"tenant_id" integer NOT NULL,
	CONSTRAINT "staff_stores_user_id_store_id_pk" PRIMARY KEY("user_id","store_id")
);
--> statement-breakpoint
CREATE TABLE "tenants" (
	"id" serial PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tenants_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "kind" "booking_kind" DEFAULT 'booking' NOT NULL;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "attendance" "attendance";--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "store_cancel_reason" text;--> statement-breakpoint
ALTER TABLE "stores" ADD COLUMN "tenant_id" integer;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "role" "user_role" DEFAULT 'diner' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "tenant_id" integer;--> statement-breakpoint
ALTER TABLE "staff_audit" ADD CONSTRAINT "staff_audit_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_audit" ADD CONSTRAINT "staff_audit_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The (id, tenant) keys come before the staff_stores keys that reference them.
ALTER TABLE "stores" ADD CONSTRAINT "stores_id_tenant_key" UNIQUE("id","tenant_id");--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_id_tenant_key" UNIQUE("id","tenant_id");--> statement-breakpoint
ALTER TABLE "staff_stores" ADD CONSTRAINT "staff_stores_user_fk" FOREIGN KEY ("user_id","tenant_id") REFERENCES "public"."users"("id","tenant_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_stores" ADD CONSTRAINT "staff_stores_store_fk" FOREIGN KEY ("store_id","tenant_id") REFERENCES "public"."stores"("id","tenant_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "staff_audit_store_idx" ON "staff_audit" USING btree ("store_id","created_at");--> statement-breakpoint
CREATE INDEX "staff_audit_user_idx" ON "staff_audit" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "staff_stores_store_idx" ON "staff_stores" USING btree ("store_id");--> statement-breakpoint
ALTER TABLE "stores" ADD CONSTRAINT "stores_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_role_tenant_check" CHECK (("users"."role" = 'staff') = ("users"."tenant_id" is not null));