import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { formatTime } from '../../src/lib/datetime';
import { fromDictionary } from '../../src/lib/contract/messages';
import { chooseStart } from '../helpers/start-picker';

// Times as the Japanese pages write them (翌0:15 past midnight).
const ja = fromDictionary({ 'time.nextDay': '翌{{time}}', 'time.pastMidnight': '{{when}}（{{date}}）' });

/**
 * With JavaScript off, booking works through plain forms and pages the server renders: the listing,
 * the store page's starts, the booking form (its starts rendered by the server, a changed date shown
 * by posting the form), field errors that keep what was typed, the confirmation and the booking;
 * then changing it and cancelling it from its edit page (a guest's edit page too, whose referrer
 * policy must still let its own forms through the cross-site check).
 */
test.use({ javaScriptEnabled: false });

const DAY = 24 * 3600_000;
/** YYYY-MM-DD of the Tokyo business day `days` from now (the day starts at 05:00). */
const businessDay = (days: number) => new Date(Date.now() + 9 * 3600_000 - 5 * 3600_000 + days * DAY).toISOString().slice(0, 10);

/** A store with free tables at 19:00 on `date` for two (from the seed), through the availability API. */
async function freeAtSeven(request: APIRequestContext, date: string, skip: number): Promise<number> {
  let seen = 0;
  for (let id = 1; id < 400; id++) {
    const res = await request.get(`/api/stores/${id}/availability?date=${date}&party=2`);
    if (!res.ok()) continue;
    const { slots } = (await res.json()) as { slots: { start: string; free_tables: number }[] };
    if (slots.some((s) => s.start.slice(11, 16) === '19:00' && s.free_tables >= 2) && seen++ >= skip) return id;
  }
  throw new Error('no store free at 19:00');
}

/** On a booking's edit page: change the note (the start stays chosen), then cancel after the policy is restated. */
async function changeThenCancel(page: Page, note: string) {
  await expect(page.getByTestId('slots').locator('input:checked')).toHaveCount(1);
  await page.getByLabel('ご要望（任意）').fill(note);
  await page.getByRole('button', { name: '確認へ進む' }).click();
  await expect(page.getByTestId('booking-confirm')).toContainText(note);
  await page.getByRole('button', { name: 'この内容で変更する' }).click();
  await expect(page.getByTestId('edit-done')).toHaveText('予約を変更しました');
  await expect(page.getByTestId('summary')).toContainText(note);

  await page.getByRole('button', { name: '予約をキャンセル' }).click();
  const ask = page.getByRole('alertdialog', { name: 'この予約をキャンセルしますか？' });
  await expect(ask).toContainText('キャンセルポリシー');
  await ask.getByRole('button', { name: 'やめる' }).click();
  await expect(page.getByRole('alertdialog')).toHaveCount(0);
  await expect(page.getByLabel('ご要望（任意）')).toHaveValue(note);
  await page.getByRole('button', { name: '予約をキャンセル' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'キャンセルする' }).click();
  await expect(page.getByTestId('edit-done')).toHaveText('予約をキャンセルしました');
  await expect(page.getByTestId('summary')).toContainText('キャンセル済み');
}

test('guest: listing → store → a start → contact details (an error, nothing lost) → confirm → booked', async ({ page }) => {
  // 24-hour stores: the store listed first changes with the hour, and a small one may be full tomorrow.
  await page.goto('/stores?tag=open_24h');
  await page.locator('#store-results article[data-store-id]').first().locator('[data-store-link]').click();
  await expect(page).toHaveURL(/\/store\/\d+(\?|$)/);
  // Tomorrow's starts, by the form's own button: in the last minutes before 05:00 today's have all passed.
  await page.getByLabel('日付').selectOption({ index: 1 });
  await page.getByRole('button', { name: '空席を確認' }).click();
  await expect(page).toHaveURL(/date=\d{4}-\d{2}-\d{2}/);
  await page.locator('[data-day-slots] a[data-slot]').first().click();
  await expect(page).toHaveURL(/\/booking-without\?.*start=/);
  const start = new URL(page.url()).searchParams.get('start')!;
  await expect(page.getByRole('heading', { name: 'ログインせずに予約' })).toBeVisible();
  await expect(page.getByTestId('slots').locator('input:checked')).toHaveValue(start);

  await page.getByLabel('お名前').fill('無効 太郎');
  await page.getByLabel('フリガナ').fill('Mukou');
  await page.getByLabel('電話番号').fill('０９０－５５５５－１２３４');
  await page.getByLabel('メールアドレス').fill(`nojs-${Date.now()}@example.jp`);
  await page.getByLabel('ご要望（任意）').fill('静かな席');
  await page.getByRole('button', { name: '確認へ進む' }).click();
  await expect(page.getByText('フリガナはカタカナまたはひらがなで入力してください')).toBeVisible();
  await expect(page.getByLabel('ご要望（任意）')).toHaveValue('静かな席');
  await expect(page.getByLabel('お名前')).toHaveValue('無効 太郎');
  await expect(page.getByTestId('slots').locator('input:checked')).toHaveValue(start);

  await page.getByLabel('フリガナ').fill('ムコウ タロウ');
  await page.getByRole('button', { name: '確認へ進む' }).click();
  const confirm = page.getByTestId('booking-confirm');
  await expect(confirm.getByTestId('summary')).toContainText(`${formatTime(new Date(start), ja)}〜`);
  await expect(confirm.getByTestId('summary')).toContainText('静かな席');
  await confirm.getByRole('button', { name: 'この内容で予約する' }).click();

  const done = page.getByTestId('booking-done');
  await expect(done.getByRole('heading', { name: '予約が確定しました' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'ログインせずに予約' })).toHaveCount(0);
  await expect(done.getByTestId('summary').locator('dd').first()).toHaveText(/^SG-[A-Z0-9]{6}$/);
  const editLink = done.getByTestId('edit-link');
  await expect(editLink).toHaveAttribute('href', /\/booking-without\/edit\/\d+\?token=[\w-]{43}$/);

  await page.goto(new URL((await editLink.getAttribute('href'))!).pathname + new URL((await editLink.getAttribute('href'))!).search);
  await expect(page).toHaveURL(/\/booking-without\/edit\/\d+$/);
  await changeThenCancel(page, '窓際の席');
});

test('signed in: another day through the form, a start, confirm → the booking page', async ({ page }) => {
  const signupEmail = `nojs-${Date.now()}@example.jp`;
  const signup = await page.request.post('/api/users', { data: { name: '無効 花子', email: signupEmail, password: 'correct-horse-battery', agree: true } });
  expect(signup.status()).toBe(201);
  // Sign-up signs no one in (the mailed link does); the password just chosen does.
  expect((await page.request.post('/api/login', { data: { email: signupEmail, password: 'correct-horse-battery' } })).status()).toBe(200);
  const date = businessDay(5);
  const storeId = await freeAtSeven(page.request, date, 3);
  await page.goto(`/store/${storeId}/booking`);
  await page.getByLabel('日付').selectOption(date);
  await page.getByRole('button', { name: 'この日付と人数の空き時間を表示' }).click();
  // A long day's later hours are folded: 19:00 is tapped in its hour, opened first.
  await chooseStart(page, (await page.getByTestId('slots').locator('label', { hasText: '19:00' }).locator('input').getAttribute('value'))!);
  await page.getByRole('button', { name: '確認へ進む' }).click();
  await expect(page.getByTestId('booking-confirm').getByTestId('summary')).toContainText('19:00〜');
  await page.getByRole('button', { name: 'この内容で予約する' }).click();
  await expect(page).toHaveURL(/\/booking\/complete\/\d+$/);
  await expect(page.getByRole('heading', { name: '予約が確定しました' })).toBeVisible();
  await expect(page.getByTestId('summary')).toContainText('19:00〜');

  await page.goto('/booking-list');
  await page.getByTestId('list-upcoming').getByRole('link', { name: '変更・キャンセル' }).first().click();
  await expect(page).toHaveURL(/\/booking\/edit\/\d+$/);
  await changeThenCancel(page, '誕生日です');
});
