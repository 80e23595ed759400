/**
 * The platform admin in a real Chromium, in Japanese: the admin signs in on the store host, opens a
 * company with its first store and its owner's invitation (a refused field keeps what was typed),
 * and the owner follows the mailed link, signs up and lands on the new store's ledger.
 *
 * Like accounts.spec.ts this spec runs its own server on PostgreSQL: the invitation link exists only
 * in the mail outbox, which a test can read beside a PostgreSQL server (not beside the shared
 * server's embedded database), exactly as the mail carries it (tests/helpers/outbox.ts).
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import crypto from 'node:crypto';
import { invitationLinkFromOutbox, serverOnPostgres } from '../helpers/outbox';
import { DEMO_ADMIN } from '../../src/server/db/seed-data';
import { htmlValidateErrors, nuCheckerErrors, type Page as HtmlPage } from '../helpers/html-validators';

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

/**
 * A page's HTML as the server sends it, fetched by the page itself (the store host's name resolves
 * in the browser, not in Node): a GET, or a form post when `form` is given.
 */
function source(page: Page, path: string, form?: Record<string, string>): Promise<string> {
  return page.evaluate(async ([p, f]) => (await fetch(p, f ? { method: 'POST', body: new URLSearchParams(f), redirect: 'manual' } : {})).text(), [
    path,
    form,
  ] as const);
}

/** Nothing wider than the window (no sideways scrolling). */
const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

test('the admin opens a store with its owner’s invitation; the owner signs up from the mail onto its ledger', async ({ page, browser, context }) => {
  const suffix = crypto.randomBytes(3).toString('hex');
  const owner = `owner-${suffix}@example.jp`;
  const storeName = `招待テスト食堂 ${suffix}`;

  // Signed out, the admin's screen asks for the admin's sign-in and comes back.
  await page.goto(`${server.storeHost}/admin-create-store`);
  await expect(page).toHaveURL(/\/admin-signin\?next=/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('運営スタッフ ログイン');
  await page.getByLabel('メールアドレス').fill(DEMO_ADMIN.email);
  await page.getByLabel('パスワード').fill(DEMO_ADMIN.password);
  await page.getByRole('button', { name: 'ログイン', exact: true }).click();
  await expect(page).toHaveURL(`${server.storeHost}/admin-create-store`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('店舗の新規登録');
  expect(await seriousViolations(page)).toEqual([]);

  const form = page.getByTestId('admin-create-store');
  await form.getByLabel('会社名').fill(`株式会社テスト ${suffix}`);
  await form.getByLabel('オーナーのメールアドレス').fill(owner);
  await form.getByLabel('店名').fill(storeName);
  await form.getByLabel('フリガナ').fill('Shokudo');
  await form.getByLabel('ジャンル').selectOption('washoku');
  await form.getByLabel('エリア').selectOption({ index: 1 });
  await form.getByLabel('住所').fill('東京都渋谷区道玄坂1-1-1');
  await form.getByLabel('電話番号').fill('03-1111-2222');
  await form.getByLabel('最寄り駅').fill('渋谷');
  await form.getByLabel('駅からの徒歩（分）').fill('3');
  await form.getByLabel('予算（下限）').fill('3000');
  await form.getByLabel('予算（上限）').fill('5000');
  await form.getByLabel('緯度').fill('35.6590');
  await form.getByLabel('経度').fill('139.6990');
  await form.getByRole('button', { name: '登録して招待を送る' }).click();

  // Refused: the kana is named, and everything typed is still there.
  const again = page.getByTestId('admin-create-store');
  await expect(again.getByText('入力内容を確認してください')).toBeVisible();
  await expect(again.getByText('フリガナはカタカナまたはひらがなで入力してください')).toBeVisible();
  await expect(again.getByLabel('フリガナ')).toHaveAttribute('aria-invalid', 'true');
  await expect(again.getByLabel('店名')).toHaveValue(storeName);
  await expect(again.getByLabel('オーナーのメールアドレス')).toHaveValue(owner);
  await expect(again.getByLabel('ジャンル')).toHaveValue('washoku');
  await expect(again.getByLabel('経度')).toHaveValue('139.6990');
  expect(await seriousViolations(page)).toEqual([]);
  // The same form on a phone: nothing runs off the side.
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await fitsWidth(page)).toBe(true);
  await page.setViewportSize({ width: 1024, height: 768 });

  await again.getByLabel('フリガナ').fill('しょくどう');
  await again.getByRole('button', { name: '登録して招待を送る' }).click();
  await expect(page.getByTestId('store-flash')).toContainText(storeName);
  await expect(page.getByTestId('store-flash')).toContainText(owner);
  // Dark theme too.
  await context.addCookies([{ name: 'theme', value: 'dark', url: server.storeHost }]);
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  expect(await seriousViolations(page)).toEqual([]);
  // The admin's pages as served, empty and refused, are valid HTML.
  const pages: HtmlPage[] = [
    { name: 'GET /admin-create-store', html: await source(page, '/admin-create-store') },
    { name: 'POST /admin-create-store refused', html: await source(page, '/admin-create-store', { company_name: '会社', lat: 'north' }) },
  ];

  // The owner, in a browser of their own, follows the mailed link.
  const link = await invitationLinkFromOutbox(server.databaseUrl, owner);
  expect(link.startsWith(`${server.storeHost}/store-signup?token=`)).toBe(true);
  const ownerContext = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'ja-JP' });
  const ownerPage = await ownerContext.newPage();
  await ownerPage.goto(`${server.storeHost}/store-signup`);
  pages.push({ name: 'GET /store-signup?token=', html: await source(ownerPage, new URL(link).pathname + new URL(link).search) });
  pages.push({ name: 'GET /store-signup?token=unknown', html: await source(ownerPage, '/store-signup?token=unknown') });
  for (const p of pages) expect(p.html.trimEnd(), `${p.name} ends with </html>`).toMatch(/<\/html>$/);
  expect(await htmlValidateErrors(pages)).toEqual([]);
  expect(await nuCheckerErrors(pages)).toEqual([]);
  await ownerPage.goto(link);
  await expect(ownerPage.getByRole('heading', { level: 1 })).toHaveText('店舗スタッフの登録');
  await expect(ownerPage.getByLabel('メールアドレス')).toHaveValue(owner);
  expect(await seriousViolations(ownerPage)).toEqual([]);
  expect(await fitsWidth(ownerPage)).toBe(true);
  const signup = ownerPage.getByTestId('store-signup-form');
  await signup.getByLabel('お名前').fill('招待 太郎');
  await signup.getByLabel('フリガナ').fill('ショウタイ タロウ');
  await signup.getByLabel('パスワード').fill('owner-long-password');
  await signup.getByRole('button', { name: '登録してログイン' }).click();
  await expect(ownerPage).toHaveURL(`${server.storeHost}/list-booking-manage`);
  await expect(ownerPage.getByRole('heading', { level: 1 })).toHaveText('予約台帳');
  await expect(ownerPage.getByTestId('store-name')).toHaveText(storeName);

  // The link is spent: opened again, it says so.
  const reuse = await browser.newContext({ locale: 'ja-JP' });
  const reusePage = await reuse.newPage();
  await reusePage.goto(link);
  await expect(reusePage.getByTestId('invitation-invalid')).toBeVisible();

  // The owner may invite staff from the store list.
  await ownerPage.goto(`${server.storeHost}/list-store-manage`);
  const invite = ownerPage.getByTestId('invite-staff');
  await invite.getByLabel('メールアドレス').fill(`staff-${suffix}@example.jp`);
  await invite.getByRole('button', { name: '招待を送る' }).click();
  await expect(ownerPage.getByTestId('store-flash')).toContainText(`staff-${suffix}@example.jp`);
  expect(await seriousViolations(ownerPage)).toEqual([]);
  await ownerContext.close();
  await reuse.close();
});
