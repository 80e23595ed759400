ALTER TABLE "queue_entries" ADD COLUMN "mail_token_hash" text;--> statement-breakpoint
ALTER TABLE "queue_entries" ADD CONSTRAINT "queue_entries_mail_token_key" UNIQUE("mail_token_hash");