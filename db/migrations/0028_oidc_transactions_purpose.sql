ALTER TABLE "oidc_transactions" ADD COLUMN "purpose" text DEFAULT 'signin' NOT NULL;--> statement-breakpoint
ALTER TABLE "oidc_transactions" ADD COLUMN "user_id" integer;--> statement-breakpoint
ALTER TABLE "oidc_transactions" ADD COLUMN "created_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "oidc_transactions" ADD CONSTRAINT "oidc_transactions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;