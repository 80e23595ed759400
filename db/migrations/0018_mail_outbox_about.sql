ALTER TABLE "mail_outbox" ADD COLUMN "about" text;--> statement-breakpoint
CREATE INDEX "mail_outbox_about_idx" ON "mail_outbox" USING btree ("about","id") WHERE "mail_outbox"."about" is not null;