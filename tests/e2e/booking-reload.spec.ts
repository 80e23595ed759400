import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { DEMO_STAFF } from '../../src/server/db/seed-data';
import { businessDay } from '../helpers/free-start';

/**
 * One booking per intent: after a guest books, a reload or Back shows the booking made, never the
 * confirm step again, and the store has exactly one booking for them (counted through the store's
 * own API, as its staff see the day). With JavaScript the widget replaces the form's address with
 * the result page's; without it the form's answer is a redirect there, so a reload posts nothing.
 * The store is the demo staff's (open 24 hours), the start the first free one at least ten minutes
 * ahead, so the test holds at any hour.
 */

/** Signs the request context in as the demo store's staff; their store's id. */
async function staffStore(request: APIRequestContext): Promise<number> {
  expect((await request.post('/api/login', { data: { email: DEMO_STAFF.email, password: DEMO_STAFF.password } })).ok()).toBe(true);
  const day = await request.get('/api/store/bookings');
  expect(day.ok()).toBe(true);
  return ((await day.json()) as { store_id: number }).store_id;
}

/** The first start with a free table for two at least ten minutes ahead, today or tomorrow. */
async function startAhead(request: APIRequestContext, storeId: number): Promise<{ date: string; start: string }> {
  for (const date of [businessDay(0), businessDay(1)]) {
    const res = await request.get(`/api/stores/${storeId}/availability?date=${date}&party=2`);
    const { slots } = (await res.json()) as { slots: { start: string; free_tables: number }[] };
    const slot = slots.find((s) => s.free_tables > 0 && Date.parse(s.start) >= Date.now() + 10 * 60_000);
    if (slot) return { date, start: slot.start };
  }
  throw new Error('no free start ahead');
}

/** The store's confirmed bookings that day made with this e-mail address. */
async function bookingsOf(request: APIRequestContext, date: string, email: string): Promise<number> {
  const day = (await (await request.get(`/api/store/bookings?date=${date}`)).json()) as { items: { status: string; contact: { email: string } }[] };
  return day.items.filter((b) => b.status === 'confirmed' && b.contact.email === email).length;
}

async function fillGuest(page: Page, email: string) {
  const n = String(Date.now()).slice(-8);
  await page.getByLabel('お名前').fill('再読 込子');
  await page.getByLabel('フリガナ').fill('サイドク コメコ');
  await page.getByLabel('電話番号').fill(`080-${n.slice(0, 4)}-${n.slice(4)}`);
  await page.getByLabel('メールアドレス').fill(email);
}

/** The page shows the booking made: its heading and edit link, and no button to book again. */
async function showsResult(page: Page) {
  await expect(page).toHaveURL(/\/booking-without\/complete\/\d+$/);
  await expect(page.getByTestId('booking-done').getByRole('heading', { name: '予約が確定しました' })).toBeVisible();
  await expect(page.getByTestId('edit-link')).toHaveAttribute('href', /\/booking-without\/edit\/\d+\?token=[\w-]{43}$/);
  await expect(page.getByRole('button', { name: 'この内容で予約する' })).toHaveCount(0);
}

test('with JavaScript: after a guest books, reload and Back leave exactly one booking and never offer to book again', async ({ page, request }) => {
  const storeId = await staffStore(request);
  const { date, start } = await startAhead(request, storeId);
  const email = `reload-js-${Date.now()}@example.jp`;
  await page.goto(`/store/${storeId}`);
  await page.goto(`/store/${storeId}/booking-without?party=2&start=${encodeURIComponent(start)}`);
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
  await fillGuest(page, email);
  await page.getByRole('button', { name: '確認へ進む' }).click();
  await page.getByTestId('booking-confirm').getByRole('button', { name: 'この内容で予約する' }).click();
  await showsResult(page);
  expect(page.url()).not.toContain('start=');
  expect(await bookingsOf(request, date, email)).toBe(1);

  await page.reload();
  await showsResult(page);
  // The form's address was replaced by the result's: Back leads to the store page, Forward to the result.
  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`/store/${storeId}$`));
  await expect(page.getByRole('button', { name: 'この内容で予約する' })).toHaveCount(0);
  await page.goForward();
  await showsResult(page);
  expect(await bookingsOf(request, date, email)).toBe(1);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('after a guest books, a reload of the result page posts nothing and exactly one booking stays', async ({ page, request }) => {
    const storeId = await staffStore(request);
    const { date, start } = await startAhead(request, storeId);
    const email = `reload-nojs-${Date.now()}@example.jp`;
    await page.goto(`/store/${storeId}/booking-without?party=2&start=${encodeURIComponent(start)}`);
    await fillGuest(page, email);
    await page.getByRole('button', { name: '確認へ進む' }).click();
    const posts: string[] = [];
    page.on('request', (r) => r.method() === 'POST' && posts.push(r.url()));
    await page.getByTestId('booking-confirm').getByRole('button', { name: 'この内容で予約する' }).click();
    await showsResult(page);
    expect(posts).toHaveLength(1);
    expect(await bookingsOf(request, date, email)).toBe(1);

    await page.reload();
    await showsResult(page);
    expect(posts).toHaveLength(1);
    expect(await bookingsOf(request, date, email)).toBe(1);
  });
});
