ALTER TABLE "store_tables" ADD COLUMN "online" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "stores" ADD COLUMN "turn_times" jsonb DEFAULT '[]'::jsonb NOT NULL;