ALTER TABLE "stores" ADD COLUMN "cancel_free_hours" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "stores" ADD COLUMN "cancel_fee_yen" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "stores" ADD CONSTRAINT "stores_cancel_fee_check" CHECK ("stores"."cancel_fee_yen" >= 0 and "stores"."cancel_free_hours" between 0 and 168);--> statement-breakpoint
-- Stores seeded before the numbers existed get them from their wording (src/server/db/seed-data.ts);
-- the one wording that spoke of a course price the app does not know becomes a fee per person.
UPDATE "stores" SET "cancel_free_hours" = 2, "cancel_fee_yen" = 2000 WHERE "cancellation_policy" = 'ご予約時間の2時間前までのキャンセルは無料です。それ以降のキャンセルおよび無断キャンセルの場合は、お一人様につき2,000円を申し受けます。';--> statement-breakpoint
UPDATE "stores" SET "cancel_free_hours" = 24, "cancel_fee_yen" = 3000, "cancellation_policy" = 'ご予約時間の24時間前までのキャンセルは無料です。それ以降のキャンセルおよび無断キャンセルは、お一人様につき3,000円を申し受けます。' WHERE "cancellation_policy" = '前日までのキャンセルは無料です。当日のキャンセルはコース料金の50%、無断キャンセルは100%を申し受けます。';--> statement-breakpoint
UPDATE "stores" SET "cancel_free_hours" = 1, "cancel_fee_yen" = 1000 WHERE "cancellation_policy" = 'ご予約時間の1時間前までは無料でキャンセルできます。以降はお席のみのご予約でもお一人様1,000円を申し受けます。';
