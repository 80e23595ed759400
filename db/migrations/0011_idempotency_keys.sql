CREATE TABLE "idempotency_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"fingerprint" text NOT NULL,
	"status" integer,
	"answer" text,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "idempotency_keys_created_idx" ON "idempotency_keys" USING btree ("created_at");