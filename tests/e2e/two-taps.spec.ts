import { expect, test, type Locator, type Page } from '@playwright/test';
import { formatTime } from '../../src/lib/datetime';
import { fromDictionary } from '../../src/lib/contract/messages';
import { startAhead } from '../helpers/free-start';

// Times as the Japanese pages write them (翌0:15 past midnight).
const ja = fromDictionary({ 'time.nextDay': '翌{{time}}', 'time.pastMidnight': '{{when}}（{{date}}）' });

/**
 * Booking in two taps: a start on a listing card opens the booking form with that store, start and
 * party chosen; one more tap books it — for a signed-in diner, and for a returning guest whose
 * contact details this device kept (they ticked the box the first time). Each tap is counted.
 */

const PARTY = 3;
// The summary's clock time, as the app writes it (9:00, no leading zero).
const hhmm = (iso: string) => formatTime(new Date(iso), ja);

/** Clicks, counting them. */
function counter() {
  let count = 0;
  const tap = async (target: Locator) => {
    await target.click();
    count++;
  };
  return { tap, taps: () => count };
}

/**
 * Taps the first start (at least five minutes ahead) of a bookable card in the listing (not of store `exclude`) and returns what the
 * booking form's address carries. The start is read from the address the tap led to, so a live
 * redraw of the card between finding and tapping cannot mislead the test.
 */
async function tapCardStart(page: Page, tap: (l: Locator) => Promise<void>, exclude?: number) {
  await page.goto(`/stores?party=${PARTY}`);
  const cards = page.locator(`#store-results article[data-store-id]${exclude ? `:not([data-store-id="${exclude}"])` : ''}`);
  const link = await startAhead(cards.locator('a[data-live-slot]:visible'));
  expect(link, 'a start on a card at least five minutes ahead').toBeDefined();
  await tap(link!);
  await expect(page).toHaveURL(/\/store\/\d+\/booking(-without)?\?.*start=/);
  const url = new URL(page.url());
  return { storeId: Number(url.pathname.split('/')[2]), start: url.searchParams.get('start')!, party: Number(url.searchParams.get('party')) };
}

/** The widget is an island: its buttons answer once it has hydrated. */
const hydrated = (page: Page) => expect(page.locator('astro-island[ssr]')).toHaveCount(0);

test('signed in: a start on a card, then one tap to confirm; reload keeps the choice', async ({ page }) => {
  const signupEmail = `taps-${Date.now()}@example.jp`;
  const signup = await page.request.post('/api/users', { data: { name: '二度 押子', email: signupEmail, password: 'correct-horse-battery', agree: true } });
  expect(signup.status()).toBe(201);
  // Sign-up signs no one in (the mailed link does); the password just chosen does.
  expect((await page.request.post('/api/login', { data: { email: signupEmail, password: 'correct-horse-battery' } })).status()).toBe(200);
  const { tap, taps } = counter();

  const choice = await tapCardStart(page, tap);
  expect(choice.party).toBe(PARTY);
  const confirm = page.getByTestId('booking-confirm');
  await expect(confirm.getByTestId('summary')).toContainText(`${hhmm(choice.start)}〜`);
  await expect(confirm.getByTestId('summary')).toContainText(`${PARTY}名`);

  // The address carries the choice: a reload opens the same confirmation.
  await hydrated(page);
  await page.reload();
  await expect(page.getByTestId('booking-confirm').getByTestId('summary')).toContainText(`${hhmm(choice.start)}〜`);
  await hydrated(page);

  await tap(page.getByRole('button', { name: 'この内容で予約する' }));
  await expect(page.getByRole('heading', { name: '予約が確定しました' })).toBeVisible();
  await expect(page.getByTestId('summary')).toContainText(`${hhmm(choice.start)}〜`);
  expect(taps()).toBe(2);
});

test('returning guest: details kept on this device when asked, then two taps', async ({ page }) => {
  const phone = `090-${String(Date.now()).slice(-8, -4)}-${String(Date.now()).slice(-4)}`;
  const email = `guest-taps-${Date.now()}@example.jp`;

  // First time: the tapped start and party are already chosen; the guest types their details once.
  const first = await tapCardStart(page, (l) => l.click());
  await expect(page.getByTestId('slots').locator('input:checked')).toHaveValue(first.start);
  await expect(page.getByLabel('人数', { exact: true })).toHaveValue(String(PARTY));
  await hydrated(page);
  await page.getByLabel('お名前').fill('二度 押子');
  await page.getByLabel('フリガナ').fill('ニド オシコ');
  await page.getByLabel('電話番号').fill(phone);
  await page.getByLabel('メールアドレス').fill(email);
  await page.getByLabel('この端末に連絡先を保存して、次回は入力を省く').check();
  await page.getByRole('button', { name: '確認へ進む' }).click();
  await page.getByRole('button', { name: 'この内容で予約する' }).click();
  const link = (await page.getByTestId('edit-link').getAttribute('href'))!;
  // The edit link is copied in one tap; the way to the store is offered.
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.getByTestId('copy-edit-link').click();
  await expect(page.getByRole('status').filter({ hasText: 'コピーしました' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
  await expect(page.getByTestId('store-links').getByRole('link', { name: 'お店までの道順' })).toBeVisible();
  // Kept: what the guest typed; never the edit token.
  const stored = await page.evaluate(() => JSON.stringify(localStorage));
  expect(stored).toContain(email);
  expect(stored).not.toContain(link.split('token=')[1]!);

  // Next time, at another store: tap a start, tap confirm.
  const { tap, taps } = counter();
  const second = await tapCardStart(page, tap, first.storeId);
  const confirm = page.getByTestId('booking-confirm');
  await expect(confirm.getByTestId('summary')).toContainText(`${hhmm(second.start)}〜`);
  await expect(confirm.getByTestId('summary')).toContainText('二度 押子');
  await tap(confirm.getByRole('button', { name: 'この内容で予約する' }));
  await expect(page.getByTestId('booking-done').getByRole('heading', { name: '予約が確定しました' })).toBeVisible();
  expect(taps()).toBe(2);
});

test('a start tapped on the store page opens the booking with it chosen', async ({ page, request }) => {
  // A 24-hour store: its next hour has starts beyond the nearest, whatever the hour.
  const res = await request.get(`/api/stores?party=${PARTY}&tag=open_24h&per_page=1`);
  const id = ((await res.json()) as { items: { id: number }[] }).items[0]!.id;
  await page.goto(`/store/${id}?party=${PARTY}`);
  const link = await startAhead(page.locator('[data-now] a[data-live-slot]:visible'));
  expect(link, 'a start on the store page at least five minutes ahead').toBeDefined();
  await link!.click();
  await expect(page).toHaveURL(/booking-without\?.*start=/);
  const start = new URL(page.url()).searchParams.get('start')!;
  await expect(page.getByTestId('slots').locator('input:checked')).toHaveValue(start);
  await expect(page.getByLabel('人数', { exact: true })).toHaveValue(String(PARTY));
});
