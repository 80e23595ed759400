import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { bookAsAnotherDiner } from '../helpers/other-diner';
import { chooseStart } from '../helpers/start-picker';

/**
 * The three booking journeys in a phone-sized Chromium: a guest books, opens the edit link,
 * changes and cancels; losing a race offers the next free times without losing the form; a
 * signed-in diner books, edits and cancels.
 */

const DAY = 24 * 3600_000;
/** YYYY-MM-DD of the Tokyo business day `days` from now (the day starts at 05:00). */
function businessDay(days: number): string {
  return new Date(Date.now() + 9 * 3600_000 - 5 * 3600_000 + days * DAY).toISOString().slice(0, 10);
}

type Slot = { start: string; end: string; free_tables: number };

/**
 * A store open around the clock (from the seed), found through the availability API, with every one
 * of `times` free for two on that day: the demo bookings differ from day to day, so the store is
 * chosen by the times the test books, not by its id.
 */
async function openAllDay(request: APIRequestContext, date: string, times: string[], skip = 0): Promise<{ storeId: number; at: (time: string) => Slot }> {
  let seen = 0;
  for (let id = 1; id < 400; id++) {
    const res = await request.get(`/api/stores/${id}/availability?date=${date}&party=2`);
    if (!res.ok()) continue;
    const { slots } = (await res.json()) as { slots: Slot[] };
    const find = (time: string) => slots.find((s) => hhmm(s.start) === time);
    if (slots.length >= 90 && times.every((t) => (find(t)?.free_tables ?? 0) >= 2) && seen++ >= skip) return { storeId: id, at: (t) => find(t)! };
  }
  throw new Error(`no 24-hour store in the seed with ${times.join(', ')} free on ${date}`);
}

const hhmm = (iso: string) => iso.slice(11, 16);

async function chooseInWidget(page: Page, date: string, start: string, party = '2名') {
  // The widget is an island: a choice made before it hydrates would be reset by it.
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
  await page.getByLabel('日付').selectOption(date);
  await page.getByLabel('人数', { exact: true }).selectOption({ label: party });
  // By its exact start: while the new day loads, the previous day's times (19:00 too) are still shown.
  await chooseStart(page, start);
}

test('guest: book, open the edit link, change, cancel', async ({ page, request }) => {
  const date = businessDay(2);
  const { storeId, at } = await openAllDay(request, date, ['19:00', '20:30']);
  const start = at('19:00').start;
  await page.goto(`/store/${storeId}/booking-without`);
  await expect(page.getByRole('heading', { name: 'ログインせずに予約' })).toBeVisible();
  await chooseInWidget(page, date, start);
  await page.getByLabel('ご要望（任意）').fill('窓側希望');
  // Bad contact details: field errors in Japanese, nothing lost.
  await page.getByLabel('お名前').fill('山田 花子');
  await page.getByLabel('フリガナ').fill('Yamada');
  await page.getByLabel('電話番号').fill('090-1234-5678');
  await page.getByLabel('メールアドレス').fill('hanako@example.jp');
  await page.getByRole('button', { name: '確認へ進む' }).click();
  await expect(page.getByText('フリガナはカタカナまたはひらがなで入力してください')).toBeVisible();
  await expect(page.getByLabel('ご要望（任意）')).toHaveValue('窓側希望');
  await page.getByLabel('フリガナ').fill('ヤマダ ハナコ');
  await page.getByRole('button', { name: '確認へ進む' }).click();

  const summary = page.getByTestId('booking-confirm');
  await expect(summary.getByText(/\d+月\d+日\([日月火水木金土]\) 19:00〜\d\d:\d\d/)).toBeVisible();
  await expect(summary.getByText('キャンセルポリシー')).toBeVisible();
  // Each step that goes to the server is awaited by its answer, not by a time limit: on a busy
  // machine the booking can take longer than an assertion's few seconds.
  const booking = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/guest-bookings');
  await page.getByRole('button', { name: 'この内容で予約する' }).click();
  expect((await booking).status()).toBe(201);

  const done = page.getByTestId('booking-done');
  await expect(done.getByRole('heading', { name: '予約が確定しました' })).toBeVisible();
  const code = (await done.getByTestId('summary').locator('dd').first().textContent())!.trim();
  expect(code).toMatch(/^SG-[A-Z0-9]{6}$/);
  const link = (await done.getByTestId('edit-link').getAttribute('href'))!;
  expect(link).toMatch(/\/booking-without\/edit\/\d+\?token=[\w-]{43}$/);
  // The token is not kept in local storage.
  const stored = await page.evaluate(() => JSON.stringify(localStorage));
  expect(stored).toContain(code);
  expect(stored).not.toContain(link.split('token=')[1]!);
  const ics = await page.request.get(
    await done
      .getByRole('link', { name: 'カレンダーに追加' })
      .getAttribute('href')
      .then((h) => h!),
  );
  expect(await ics.text()).toContain('DTSTART;TZID=Asia/Tokyo:');

  // Open the link in a fresh browser (as from the mail): the token leaves the address bar.
  const other = await page.context().browser()!.newContext({ locale: 'ja-JP', timezoneId: 'Asia/Tokyo' });
  const p2 = await other.newPage();
  await p2.goto(link);
  await p2.waitForURL(/\/booking-without\/edit\/\d+$/);
  await expect(p2.getByRole('heading', { name: 'ゲスト予約の変更' })).toBeVisible();
  await expect(p2.getByTestId('booking-code')).toHaveText(code);
  const later = at('20:30').start;
  await chooseInWidget(p2, date, later);
  await p2.getByLabel('ご要望（任意）').fill('窓側希望、ベビーカーあり');
  await p2.getByRole('button', { name: '確認へ進む' }).click();
  // A change reloads the page with the booking as it now is; its cancel button works once its island has hydrated.
  await p2.getByRole('button', { name: 'この内容で変更する' }).click();
  await p2.waitForURL(/\?done=saved$/);
  await expect(p2.locator('astro-island[ssr]')).toHaveCount(0);
  await expect(p2.getByTestId('edit-done')).toHaveText('予約を変更しました');
  await expect(p2.getByTestId('summary')).toContainText('20:30〜');
  await expect(p2.getByTestId('summary')).toContainText('ベビーカーあり');
  await p2.getByRole('button', { name: '予約をキャンセル' }).click();
  await p2.getByRole('button', { name: 'キャンセルする' }).click();
  await p2.waitForURL(/\?done=cancelled$/);
  await expect(p2.getByTestId('edit-done')).toHaveText('予約をキャンセルしました');
  await expect(p2.getByTestId('summary')).toContainText('キャンセル済み');
  // A wrong link is plainly refused.
  await p2.goto(link.replace(/token=.*/, 'token=wrong'));
  await expect(p2.getByRole('heading', { name: 'リンクが無効か期限切れです' })).toBeVisible();
  await other.close();

  // The first device lists it among its guest bookings, once it has read the booking back.
  const readBack = page.waitForResponse((r) => /\/api\/guest-bookings\/\d+$/.test(new URL(r.url()).pathname));
  await page.goto('/booking-list');
  expect((await readBack).status()).toBe(200);
  const item = page.getByTestId('guest-bookings').locator(`[data-code="${code}"]`);
  await expect(item).toContainText('キャンセル済み');
  await expect(page.getByRole('link', { name: 'ログイン', exact: true }).first()).toBeVisible();
});

test('guest: a phone number typed with full-width digits is accepted, checked before sending, and stored plain', async ({ page, request }) => {
  const date = businessDay(6);
  const { storeId, at } = await openAllDay(request, date, ['18:00']);
  const start = at('18:00').start;
  const posts: string[] = [];
  page.on('request', (r) => r.method() === 'POST' && posts.push(new URL(r.url()).pathname));
  await page.goto(`/store/${storeId}/booking-without`);
  await chooseInWidget(page, date, start);
  await page.getByLabel('お名前').fill('佐藤 次郎');
  await page.getByLabel('フリガナ').fill('ｻﾄｳ ｼﾞﾛｳ');
  await page.getByLabel('電話番号').fill('１２３４');
  // A phone and e-mail of this run's own: a run again on the same server is another diner, not a duplicate booking.
  const run = String(Date.now()).slice(-8);
  const plain = `090${run}`;
  const wide = `090-${run.slice(0, 4)}-${run.slice(4)}`.replace(/[0-9-]/g, (c) => (c === '-' ? '－' : String.fromCharCode(c.charCodeAt(0) + 0xfee0)));
  await page.getByLabel('メールアドレス').fill(`jiro-${run}@example.jp`);
  await page.getByRole('button', { name: '確認へ進む' }).click();
  // The browser says what the server would say, with the same words, before anything is sent.
  await expect(page.getByText('電話番号は国内の電話番号（例: 090-1234-5678）で入力してください')).toBeVisible();
  await expect(page.getByLabel('電話番号')).toBeFocused();
  expect(posts.filter((p) => p.startsWith('/api/guest-bookings'))).toEqual([]);

  await page.getByLabel('電話番号').fill(wide);
  await page.getByRole('button', { name: '確認へ進む' }).click();
  const confirm = page.getByTestId('booking-confirm');
  // Shown back as it will be stored, not as typed.
  await expect(confirm.getByText(plain, { exact: true })).toBeVisible();
  await expect(confirm.getByText(wide)).toHaveCount(0);
  await page.getByRole('button', { name: 'この内容で予約する' }).click();
  const done = page.getByTestId('booking-done');
  await expect(done.getByRole('heading', { name: '予約が確定しました' })).toBeVisible();
  const link = (await done.getByTestId('edit-link').getAttribute('href'))!;
  const id = link.match(/edit\/(\d+)\?/)![1];
  // The booking's cookie lets this browser read it back: the phone is stored in its plain form.
  const booked = await page.request.get(`/api/guest-bookings/${id}`);
  expect(booked.status()).toBe(200);
  expect((await booked.json()).guest).toMatchObject({ phone: plain, name_kana: 'サトウ ジロウ' });
});

test('losing a race shows the next free times and keeps what was entered', async ({ page, request }) => {
  const date = businessDay(3);
  const { storeId, at } = await openAllDay(request, date, ['21:00'], 1);
  const target = at('21:00');
  await page.goto(`/store/${storeId}/booking-without`);
  await chooseInWidget(page, date, target.start);
  await page.getByLabel('ご要望（任意）').fill('誕生日のお祝いです');
  await page.getByLabel('お名前').fill('佐藤 一郎');
  await page.getByLabel('フリガナ').fill('さとう いちろう');
  await page.getByLabel('電話番号').fill('03-1234-5678');
  await page.getByLabel('メールアドレス').fill('ichiro@example.jp');
  await page.getByRole('button', { name: '確認へ進む' }).click();
  await expect(page.getByTestId('booking-confirm')).toBeVisible();

  // Meanwhile other diners take every table at that time. The day's starts are held back, so the
  // confirm step does not learn of it first (tests/e2e/no-silent-loss.spec.ts): the booking's own
  // answer (409) tells of it.
  let release = () => {};
  const held = new Promise<void>((r) => (release = r));
  await page.route(/\/api\/stores\/\d+\/availability/, async (route) => {
    await held;
    await route.continue().catch(() => {});
  });
  for (let i = 0; i < target.free_tables; i++) {
    const res = await bookAsAnotherDiner(page.url(), {
      store_id: storeId,
      start: target.start,
      party_size: 2,
      name: '他 客',
      name_kana: 'タ キャク',
      phone: `090-0000-${1000 + i}`,
      email: `other${i}@example.jp`,
    });
    expect(res.status).toBe(201);
  }

  await page.getByRole('button', { name: 'この内容で予約する' }).click();
  const race = page.getByTestId('race-lost');
  await expect(race).toContainText('直前に満席になりました');
  const offers = race.getByRole('button');
  await expect(offers.first()).toBeVisible();
  expect(await offers.allTextContents()).not.toContain('21:00');
  // Nothing typed was lost.
  await expect(page.getByLabel('ご要望（任意）')).toHaveValue('誕生日のお祝いです');
  await expect(page.getByLabel('お名前')).toHaveValue('佐藤 一郎');
  await expect(page.getByLabel('メールアドレス')).toHaveValue('ichiro@example.jp');
  const pick = (await offers.first().textContent())!.trim();
  release();
  await offers.first().click();
  await page.getByRole('button', { name: '確認へ進む' }).click();
  await expect(page.getByTestId('booking-confirm')).toContainText(`${pick}〜`);
  await page.getByRole('button', { name: 'この内容で予約する' }).click();
  await expect(page.getByTestId('booking-done')).toBeVisible();
});

test('signed in: book, edit, cancel', async ({ page }) => {
  const email = `e2e-${Date.now()}@example.jp`;
  const signup = await page.request.post('/api/users', { data: { name: '予約 花子', email: email, password: 'correct-horse-battery', agree: true } });
  expect(signup.status()).toBe(201);
  // Sign-up signs no one in (the mailed link does); the password just chosen does.
  expect((await page.request.post('/api/login', { data: { email: email, password: 'correct-horse-battery' } })).status()).toBe(200);
  const date = businessDay(4);
  const { storeId, at } = await openAllDay(page.request, date, ['18:00', '19:15'], 2);
  const start = at('18:00').start;
  await page.goto(`/store/${storeId}/booking`);
  await chooseInWidget(page, date, start);
  await page.getByRole('button', { name: '確認へ進む' }).click();
  await page.getByRole('button', { name: 'この内容で予約する' }).click();
  await expect(page.getByRole('heading', { name: '予約が確定しました' })).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();
  const code = (await page.getByTestId('booking-code').textContent())!.trim();
  await page.getByRole('link', { name: '予約を変更・キャンセル' }).click();
  const later = at('19:15').start;
  await chooseInWidget(page, date, later);
  await page.getByRole('button', { name: '確認へ進む' }).click();
  await page.getByRole('button', { name: 'この内容で変更する' }).click();
  await expect(page.getByTestId('edit-done')).toHaveText('予約を変更しました');
  await expect(page.getByTestId('summary')).toContainText('19:15〜');
  await page.getByRole('button', { name: '予約をキャンセル' }).click();
  await page.getByRole('button', { name: 'キャンセルする' }).click();
  await expect(page.getByTestId('summary')).toContainText('キャンセル済み');
  await page.goto('/booking-list');
  await expect(page.getByTestId('list-past').locator(`[data-code="${code}"]`)).toContainText('キャンセル済み');
});
