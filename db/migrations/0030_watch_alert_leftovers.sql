-- The 空席通知 alert that went to every watcher at once is gone (holds offer a start to one watcher at a time,
-- recorded in watch_holds): its once-per-start record and its last mail time are no longer written or read.
DROP TABLE "watch_notifications" CASCADE;--> statement-breakpoint
ALTER TABLE "watches" DROP COLUMN "last_mailed_at";