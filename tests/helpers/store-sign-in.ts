import { expect, type Page } from '@playwright/test';
import { DEMO_STAFF } from '../../src/server/db/seed-data';

/** Signs the demo staff in through the store host's own form, as staff do, landing on the ledger. */
export async function signInAsStaff(page: Page, storeHost: string): Promise<void> {
  await page.goto(`${storeHost}/store-signin`);
  await page.getByLabel('メールアドレス').fill(DEMO_STAFF.email);
  await page.getByLabel('パスワード').fill(DEMO_STAFF.password);
  await page.getByRole('button', { name: 'ログイン', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('予約台帳');
}
