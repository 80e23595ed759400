import { expect, test } from '@playwright/test';
import { businessDay, freeAtEight } from '../helpers/free-start';

/**
 * After booking: the way to the store, a call and sharing; a cancel dialog that restates the
 * store's policy; a cancellation said once, with no calendar offered for it; past bookings read
 * 過去の予約, not 予約確定.
 */

test('signed in: the booking page gives the address, directions, a call and a share link', async ({ page }) => {
  const signupEmail = `after-${Date.now()}@example.jp`;
  const signup = await page.request.post('/api/users', { data: { name: '道順 花子', email: signupEmail, password: 'correct-horse-battery', agree: true } });
  expect(signup.status()).toBe(201);
  // Sign-up signs no one in (the mailed link does); the password just chosen does.
  expect((await page.request.post('/api/login', { data: { email: signupEmail, password: 'correct-horse-battery' } })).status()).toBe(200);
  const { storeId, start } = await freeAtEight(page.request, businessDay(6), 5);
  const res = await page.request.post('/api/bookings', { data: { store_id: storeId, start, party_size: 2 } });
  expect(res.status()).toBe(201);
  const { id } = (await res.json()) as { id: number };
  await page.goto(`/store/${storeId}/booking/complete/${id}`);
  const links = page.getByTestId('store-links');
  await expect(links.getByRole('link', { name: 'お店までの道順' })).toHaveAttribute(
    'href',
    /^https:\/\/www\.google\.com\/maps\/dir\/\?api=1&destination=[\d.]+,[\d.]+/,
  );
  await expect(links.getByRole('link', { name: 'お店に電話' })).toHaveAttribute('href', /^tel:0\d{9,10}$/);
  const share = decodeURIComponent((await links.getByRole('link', { name: '予約内容を共有' }).getAttribute('href'))!);
  expect(share).toMatch(/^https:\/\/line\.me\/R\/share\?text=.+を予約しました（.*20:00〜.*・2名）$/);
  await expect(links).toContainText('住所');
});

test('guest: the cancel dialog restates the policy; after cancelling, the page says so once and offers no calendar', async ({ page }) => {
  const { storeId, start } = await freeAtEight(page.request, businessDay(6), 6);
  const phone = `080-${String(Date.now()).slice(-8, -4)}-${String(Date.now()).slice(-4)}`;
  const res = await page.request.post('/api/guest-bookings', {
    data: { store_id: storeId, start, party_size: 2, name: '取消 太郎', name_kana: 'トリケシ タロウ', phone, email: `cancel-${Date.now()}@example.jp` },
  });
  expect(res.status()).toBe(201);
  const { id } = (await res.json()) as { id: number };
  // The booking's cookie came with the answer: the edit page opens as from this device.
  await page.goto(`/store/${storeId}/booking-without/edit/${id}`);
  await expect(page.getByRole('link', { name: 'カレンダーに追加' })).toBeVisible();
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
  await page.getByRole('button', { name: '予約をキャンセル' }).click();
  // Before committing, the dialog restates the store's policy and what cancelling costs now.
  // The store's wording, when it adds to the fee line (a text opening with that line does not repeat it).
  const policy = (await page.getByTestId('policy').count()) ? (await page.getByTestId('policy').innerText()).trim() : '';
  const fee = (await page.getByTestId('booking-fee').innerText()).trim();
  const ask = page.getByRole('alertdialog');
  await expect(ask).toContainText('キャンセルポリシー');
  await expect(ask.getByTestId('fee')).toHaveText(fee);
  await expect(ask).toContainText(policy);
  await page.getByRole('button', { name: 'キャンセルする' }).click();
  await expect(page.getByTestId('edit-done')).toHaveText('予約をキャンセルしました');
  await expect(page.getByText('予約をキャンセルしました')).toHaveCount(1);
  await expect(page.getByTestId('summary')).toContainText('キャンセル済み');
  await expect(page.getByRole('link', { name: 'カレンダーに追加' })).toHaveCount(0);
  // The page is no longer a change form: its title and heading say what it is now.
  await expect(page).toHaveTitle(/キャンセルした予約/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('キャンセルした予約');
});

test('past bookings in the history read 過去の予約', async ({ page }) => {
  const login = await page.request.post('/api/login', { data: { email: 'demo@sugu.jp', password: 'sugu-demo-2026' } });
  expect(login.ok()).toBe(true);
  await page.goto('/booking-list');
  const past = page.getByTestId('list-past');
  // The demo account has two confirmed bookings that have ended (three and one weeks ago) and a cancelled one.
  await expect(past.locator('[data-testid="booking-item"]').filter({ hasText: '過去の予約' })).toHaveCount(2);
  await expect(past).not.toContainText('予約確定');
  await expect(past).toContainText('キャンセル済み');
});
