import { expect, test, type APIRequestContext } from '@playwright/test';

/**
 * 空席通知 in the browser (phone size, Japanese): a search whose only store is full for the party
 * right now → 「空席が出たら知らせる」 → another diner cancels → the open page shows a toast with
 * a link → one tap opens the booking with that start chosen → booked. The data is the test's own:
 * a store open around the clock, made full for the next hour by the test's bookings, at any hour.
 */

interface Slot {
  start: string;
  free_tables: number;
}

const HOUR = 60 * 60_000;

/** Starts free for the party within the next hour (and the hour's business day after it). */
async function freeWithinTheHour(request: APIRequestContext, storeId: number, party: number): Promise<Slot[]> {
  const first = (await (await request.get(`/api/stores/${storeId}/availability?party=${party}`)).json()) as { date: string; slots: Slot[] };
  const nextDate = new Date(Date.parse(`${first.date}T12:00:00Z`) + 24 * HOUR).toISOString().slice(0, 10);
  const second = await request.get(`/api/stores/${storeId}/availability?party=${party}&date=${nextDate}`);
  const slots = [...first.slots, ...(second.ok() ? ((await second.json()) as { slots: Slot[] }).slots : [])];
  const now = Date.now();
  return slots.filter((s) => s.free_tables > 0 && Date.parse(s.start) > now && Date.parse(s.start) < now + HOUR);
}

test('full listing → watch → another diner cancels → toast with a link → booked', async ({ page, request }) => {
  // An all-day store and its largest party (the fewest tables seat it), made full for the next hour.
  // One with a start free for that party now: the demo's own bookings fill some at some hours.
  let store: { id: number; name: string; area: { id: number }; max_party: number } | undefined;
  for (let id = 1; id <= 80 && !store; id++) {
    const res = await request.get(`/api/stores/${id}`);
    if (!res.ok()) continue;
    const s = (await res.json()) as { id: number; name: string; area: { id: number }; max_party: number; hours: { opens_min: number; closes_min: number }[] };
    if (s.hours?.length === 7 && s.hours.every((h) => h.opens_min === 0 && h.closes_min === 1440) && (await freeWithinTheHour(request, s.id, s.max_party)).length) store = s;
  }
  expect(store, 'an all-day store in the demo data with a start free within the hour').toBeDefined();
  const party = store!.max_party;
  const held: { id: number; token: string }[] = [];
  for (let n = 0; n < 12; n++) {
    const [slot] = await freeWithinTheHour(request, store!.id, party);
    if (!slot) break;
    const res = await request.post('/api/guest-bookings', {
      data: { store_id: store!.id, start: slot.start, party_size: party, name: '先客 太郎', name_kana: 'センキャク タロウ', phone: `090-1111-${String(1000 + n)}`, email: `first-${n}-${Date.now()}@example.jp` },
    });
    expect(res.status()).toBe(201);
    const b = (await res.json()) as { id: number; edit_token: string };
    held.push({ id: b.id, token: b.edit_token });
  }
  expect(await freeWithinTheHour(request, store!.id, party)).toEqual([]);
  expect(held.length).toBeGreaterThan(0);

  // The diner signs in and searches this store's area and name for the party: nothing is free now.
  const signup = await page.request.post('/api/users', { data: { name: '通知 待子', email: `watch-${Date.now()}@example.jp`, password: 'correct-horse-battery', agree: true } });
  expect(signup.status()).toBe(201);
  await page.goto(`/areas/${store!.area.id}?name=${encodeURIComponent(store!.name)}&party=${party}`);
  await expect(page.locator('[data-empty]')).toBeVisible();
  const ask = page.locator('form[data-watch-ask="on"]');
  await ask.getByRole('button', { name: '空席が出たら知らせる' }).click();
  await expect(ask.getByRole('status')).toHaveText('空席通知を登録しました');

  // Another diner cancels: the page hears it at once.
  const cancelled = await request.delete(`/api/guest-bookings/${held[0]!.id}`, { headers: { 'x-booking-token': held[0]!.token, origin: new URL(page.url()).origin } });
  expect(cancelled.status()).toBe(200);
  const toast = page.getByRole('status').filter({ hasText: `${store!.name}に` });
  await expect(toast).toContainText(`${party}名の空席が出ました`);
  await toast.getByRole('link', { name: 'この時間で予約' }).click();

  // The booking opens with store, start and party chosen: one more tap books it.
  await expect(page).toHaveURL(new RegExp(`/store/${store!.id}/booking\\?.*start=`));
  const start = new URL(page.url()).searchParams.get('start')!;
  expect(Date.parse(start)).toBeGreaterThan(Date.now() - 15 * 60_000);
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
  await page.getByRole('button', { name: 'この内容で予約する' }).click();
  await expect(page.getByRole('heading', { name: '予約が確定しました' })).toBeVisible();
});
