import { expect, test, type APIRequestContext } from '@playwright/test';
import { businessDay } from '../helpers/free-start';
import { bookAsAnotherDiner } from '../helpers/other-diner';

/**
 * Nothing is lost without a word (phone, Japanese): a start taken by another diner while this one
 * is on the confirm step keeps them there, says 「この時間は埋まりました」 and offers the next free
 * starts, one tap each; a booking link whose party cannot be honoured says so beside the party shown.
 */

type Slot = { start: string; free_tables: number };
const hhmm = (iso: string) => iso.slice(11, 16);

/** A 24-hour store from the seed with `time` and a later start free for two on `date` (the `skip`th such). */
async function allDayWith(request: APIRequestContext, date: string, time: string, skip: number): Promise<{ storeId: number; slot: Slot }> {
  let seen = 0;
  for (let id = 1; id < 400; id++) {
    const res = await request.get(`/api/stores/${id}/availability?date=${date}&party=2`);
    if (!res.ok()) continue;
    const { slots } = (await res.json()) as { slots: Slot[] };
    const slot = slots.find((s) => hhmm(s.start) === time && s.free_tables >= 1);
    const later = slots.some((s) => s.free_tables > 0 && s.start > (slot?.start ?? '~'));
    if (slots.length >= 90 && slot && later && seen++ >= skip) return { storeId: id, slot };
  }
  throw new Error(`no 24-hour store with ${time} free on ${date}`);
}

test('the confirm step stays when its start is taken meanwhile: この時間は埋まりました, and the next free starts one tap away', async ({ page, request }) => {
  const date = businessDay(4);
  const { storeId, slot } = await allDayWith(request, date, '20:15', 2);
  // The widget listens to the store's live stream from the moment it hydrates.
  const stream = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/availability/stream');
  await page.goto(`/store/${storeId}/booking-without?${new URLSearchParams({ start: slot.start, party: '2' })}`);
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
  await stream;
  await expect(page.getByTestId('slots').locator(`input[value="${slot.start}"]`)).toBeChecked();
  await page.getByLabel('お名前').fill('鈴木 次郎');
  await page.getByLabel('フリガナ').fill('スズキ ジロウ');
  await page.getByLabel('電話番号').fill('090-4444-5555');
  await page.getByLabel('メールアドレス').fill('jiro@example.jp');
  await page.getByRole('button', { name: '確認へ進む' }).click();
  const confirm = page.getByTestId('booking-confirm');
  await expect(confirm.getByText(/20:15〜/)).toBeVisible();

  // Other diners, each on a device of their own, take every table at that start (one diner, and
  // one device, holds one table at a time).
  for (let i = 0; i < slot.free_tables; i++) {
    const res = await bookAsAnotherDiner(page.url(), {
      store_id: storeId,
      start: slot.start,
      party_size: 2,
      name: '他 客',
      name_kana: 'タ キャク',
      phone: `090-0000-${1111 + i}`,
      email: `taker${i}-${Date.now()}@example.jp`,
    });
    expect(res.status).toBe(201);
  }

  // Still the confirm step, the start marked taken, no booking button, the next free starts offered.
  const filled = confirm.getByTestId('slot-filled');
  await expect(filled).toContainText('この時間は埋まりました');
  await expect(confirm).toBeVisible();
  await expect(page.getByRole('button', { name: 'この内容で予約する' })).toHaveCount(0);
  const offers = filled.getByRole('button');
  await expect(offers.first()).toBeVisible();
  expect(await offers.allTextContents()).not.toContain('20:15');
  const pick = (await offers.first().textContent())!.trim();
  await offers.first().click();
  // One tap: the confirm step with the new start and its fee, ready to book.
  await expect(confirm.getByText(new RegExp(`${pick}〜`))).toBeVisible();
  await expect(confirm.getByTestId('fee-notice')).toBeVisible();
  await expect(confirm.getByTestId('slot-filled')).toHaveCount(0);
  const booked = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/guest-bookings');
  await page.getByRole('button', { name: 'この内容で予約する' }).click();
  expect((await booked).status()).toBe(201);
  await expect(page.getByTestId('booking-done')).toBeVisible();
});

test('a party the link asks for and the store cannot seat is said beside the party shown, not swapped quietly', async ({ page, request }) => {
  const date = businessDay(5);
  const { storeId } = await allDayWith(request, date, '19:00', 0);
  for (const asked of ['99', '0']) {
    await page.goto(`/store/${storeId}/booking-without?party=${asked}&date=${date}`);
    const note = page.getByTestId('link-note-party_size');
    await expect(note).toContainText(`人数「${asked}」ではご予約いただけません`);
    await expect(note).toContainText('2名の空き時間を表示しています');
    await expect(page.getByLabel('人数', { exact: true })).toHaveValue('2');
    // Choosing a party answers the note.
    await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
    await page.getByLabel('人数', { exact: true }).selectOption({ label: '3名' });
    await expect(note).toHaveCount(0);
  }
  // A past day is said too.
  await page.goto(`/store/${storeId}/booking-without?party=2&date=2020-01-01`);
  await expect(page.getByTestId('link-note-date')).toContainText('ご予約いただける日ではありません');
});
