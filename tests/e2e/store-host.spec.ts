/**
 * The store host in Chromium at tablet size, in Japanese: staff sign in at the door and keep the
 * ledger open; a diner's booking made elsewhere appears on it without a reload. The day shown is
 * tomorrow's, so the booking's start is ahead at whatever hour the test runs.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { businessDay } from '../helpers/free-start';
import { DEMO_STAFF } from '../../src/server/db/seed-data';

test.use({ viewport: { width: 1024, height: 768 } });

const storeHost = `http://store.localhost:${process.env.E2E_PORT}`;

test('staff sign in on the store host; a diner’s booking appears on the open ledger without a reload', async ({ page, baseURL }) => {
  const day = businessDay(1);
  await page.goto(`${storeHost}/list-booking-manage?date=${day}`);
  // Signed out: sign-in first, then back to the day asked for.
  await expect(page).toHaveURL(/\/store-signin\?next=/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('店舗スタッフ ログイン');
  await page.getByLabel('メールアドレス').fill(DEMO_STAFF.email);
  await page.getByLabel('パスワード').fill(DEMO_STAFF.password);
  await page.getByRole('button', { name: 'ログイン', exact: true }).click();
  await expect(page).toHaveURL(`${storeHost}/list-booking-manage?date=${day}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('予約台帳');
  await expect(page.getByTestId('store-name')).toBeVisible();
  // The stream is open before the diner books: what it announces from now on reaches this page.
  await expect(page.locator('[data-live-status]')).toHaveText('リアルタイム更新中');

  const storeId = (await page.locator('[data-ledger]').getAttribute('data-stream'))!.match(/store_id=(\d+)/)![1]!;
  const slots = (await (await page.request.get(`${baseURL}/api/stores/${storeId}/availability?date=${day}&party=2`)).json()) as {
    slots: { start: string; free_tables: number }[];
  };
  const slot = slots.slots.find((s) => s.free_tables > 0);
  expect(slot).toBeDefined();
  // A contact of this run's own: the same phone again would hold an overlapping booking (409) on a second run against the same server.
  const run = String(Date.now()).slice(-8);
  const name = `台帳 ${run.slice(-5)}`;
  await page.evaluate(() => ((window as { sameDocument?: boolean }).sameDocument = true));
  const booked = await page.request.post(`${baseURL}/api/guest-bookings`, {
    headers: { origin: baseURL! },
    data: {
      store_id: Number(storeId),
      start: slot!.start,
      party_size: 2,
      name,
      name_kana: 'ダイチョウ テスト',
      phone: `090-${run.slice(0, 4)}-${run.slice(4)}`,
      email: `ledger-${run}@example.jp`,
    },
  });
  expect(booked.status()).toBe(201);
  const { id } = (await booked.json()) as { id: number };

  const row = page.locator(`[data-booking="${id}"]`);
  await expect(row).toBeVisible();
  await expect(row).toContainText(name);
  await expect(row).toContainText('ダイチョウ テスト');
  await expect(row).toContainText('2名');
  await expect(row).toContainText('来店待ち');
  // The same document: the ledger was redrawn in place, not reloaded.
  expect(await page.evaluate(() => (window as { sameDocument?: boolean }).sameDocument)).toBe(true);
});

test('staff seat a walk-in from the ledger in two taps, and it shows on the list at once', async ({ page }) => {
  await page.goto(`${storeHost}/store-signin`);
  await page.getByLabel('メールアドレス').fill(DEMO_STAFF.email);
  await page.getByLabel('パスワード').fill(DEMO_STAFF.password);
  await page.getByRole('button', { name: 'ログイン', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('予約台帳');
  const form = page.getByTestId('walk-in-form');
  // The demo store keeps a walk-in-only seat free for the door.
  await expect(page.getByTestId('walk-in-suggestion')).toContainText('2名なら今は');
  const name = `窓口 ${Date.now() % 100000}`;
  await form.getByLabel('お名前（任意）').fill(name);

  // Tap one: the party size; tap two: 着席.
  let taps = 0;
  await form.getByText('2名', { exact: true }).click();
  taps++;
  await form.getByRole('button', { name: '着席' }).click();
  taps++;
  expect(taps).toBeLessThanOrEqual(2);

  await expect(page.getByTestId('store-flash')).toContainText('に2名をご案内しました');
  const row = page.getByTestId('walk-in').filter({ hasText: name });
  await expect(row).toBeVisible();
  await expect(row).toContainText('2名');
  // The party leaves early: one tap gives the table back.
  await row.getByRole('button', { name: '空きに戻す' }).click();
  await expect(page.getByTestId('store-flash')).toHaveText('席を空きに戻しました');
});

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

for (const theme of ['light', 'dark'] as const) {
  test(`the store host’s screens have no serious accessibility faults, ${theme} theme`, async ({ page, context }) => {
    // Eight pages through axe on a busy machine.
    test.setTimeout(180_000);
    await context.addCookies([{ name: 'theme', value: theme, url: storeHost }]);
    for (const path of ['/store-signin', '/admin-signin', '/store-signup', '/no-such-screen']) {
      await page.goto(`${storeHost}${path}`);
      expect([path, await seriousViolations(page)]).toEqual([path, []]);
    }
    await page.goto(`${storeHost}/store-signin`);
    await page.getByLabel('メールアドレス').fill(DEMO_STAFF.email);
    await page.getByLabel('パスワード').fill(DEMO_STAFF.password);
    await page.getByRole('button', { name: 'ログイン', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('予約台帳');
    for (const path of ['/list-booking-manage', `/list-booking-manage?date=${businessDay(1)}`, '/list-store-manage', '/list-seat-manage']) {
      await page.goto(`${storeHost}${path}`);
      await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
      expect([path, await seriousViolations(page)]).toEqual([path, []]);
    }
  });
}
