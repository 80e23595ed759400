/**
 * Withdrawing an invitation in a real Chromium, in Japanese, at tablet size: the owner invites two
 * people from /list-store-manage, sees them pending with their expiry and withdraws one; its link
 * then says the invitation was withdrawn. The admin, sent from a store's screen to its own, finds
 * the company with its pending invitation and withdraws the other.
 *
 * It runs its own server on PostgreSQL: the links exist only in the mail outbox (tests/helpers/outbox.ts).
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import crypto from 'node:crypto';
import { invitationLinkFromOutbox, serverOnPostgres } from '../helpers/outbox';
import { DEMO_ADMIN, DEMO_STAFF } from '../../src/server/db/seed-data';

test.describe.configure({ mode: 'serial', timeout: 180_000 });
test.use({ viewport: { width: 1024, height: 768 } });

const server = serverOnPostgres();

async function seriousViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(' '))
          .join(' | ')}`,
    );
}

async function signIn(page: Page, path: string, account: { email: string; password: string }) {
  await page.goto(`${server.storeHost}${path}`);
  await page.getByLabel('メールアドレス').fill(account.email);
  await page.getByLabel('パスワード').fill(account.password);
  await page.getByRole('button', { name: 'ログイン', exact: true }).click();
}

test('the owner and the admin withdraw pending invitations; a withdrawn link says so', async ({ page, browser }) => {
  const suffix = crypto.randomBytes(3).toString('hex');
  const gone = `gone-${suffix}@example.jp`;
  const kept = `kept-${suffix}@example.jp`;

  await signIn(page, '/store-signin', DEMO_STAFF);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('予約台帳');
  await page.goto(`${server.storeHost}/list-store-manage`);
  for (const email of [gone, kept]) {
    const invite = page.getByTestId('invite-staff');
    await invite.getByLabel('メールアドレス').fill(email);
    await invite.getByRole('button', { name: '招待を送る' }).click();
    await expect(page.getByTestId('store-flash')).toContainText(email);
  }
  const pending = page.getByTestId('pending-invitations');
  await expect(pending.getByText(gone)).toBeVisible();
  await expect(pending.getByText(kept)).toBeVisible();
  await expect(pending.locator('li', { hasText: gone })).toContainText('有効期限:');
  expect(await seriousViolations(page)).toEqual([]);

  // Withdrawn with one tap, by keyboard.
  await pending.getByRole('button', { name: `${gone} への招待を取り消す` }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('store-flash')).toContainText(`${gone} への招待を取り消しました`);
  await expect(page.getByTestId('pending-invitations').getByText(gone)).toHaveCount(0);
  await expect(page.getByTestId('pending-invitations').getByText(kept)).toBeVisible();

  // The withdrawn link, opened by the one it was sent to: it says so and offers no form.
  const invitee = await browser.newContext({ locale: 'ja-JP' });
  const inviteePage = await invitee.newPage();
  await inviteePage.goto(await invitationLinkFromOutbox(server.databaseUrl, gone));
  await expect(inviteePage.getByTestId('invitation-invalid')).toContainText('この招待は取り消されました');
  await expect(inviteePage.getByLabel('パスワード')).toHaveCount(0);
  await invitee.close();

  // The admin, in a browser of its own: a store's screen sends it to its own.
  const adminContext = await browser.newContext({ viewport: { width: 1024, height: 768 }, locale: 'ja-JP' });
  const admin = await adminContext.newPage();
  await signIn(admin, '/admin-signin', DEMO_ADMIN);
  await expect(admin).toHaveURL(`${server.storeHost}/admin-create-store`);
  await admin.goto(`${server.storeHost}/list-seat-manage`);
  await expect(admin).toHaveURL(`${server.storeHost}/admin-create-store`);
  const company = admin.getByTestId('tenant-list').locator('li[data-tenant]', { hasText: DEMO_STAFF.tenant.name });
  await expect(company.getByText(kept)).toBeVisible();
  await expect(company.getByText(gone)).toHaveCount(0);
  expect(await seriousViolations(admin)).toEqual([]);
  await company.getByRole('button', { name: `${kept} への招待を取り消す` }).click();
  await expect(admin.getByTestId('store-flash')).toContainText(`${kept} への招待を取り消しました`);
  await expect(admin.getByTestId('tenant-list').getByText(kept)).toHaveCount(0);
  // On a phone, dark: the list fits and passes axe.
  await admin.setViewportSize({ width: 390, height: 844 });
  await adminContext.addCookies([{ name: 'theme', value: 'dark', url: server.storeHost }]);
  await admin.reload();
  expect(await admin.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  expect(await seriousViolations(admin)).toEqual([]);
  await adminContext.close();

  // The owner's list no longer has it either.
  await page.reload();
  await expect(page.getByTestId('pending-invitations-none')).toBeVisible();
});
