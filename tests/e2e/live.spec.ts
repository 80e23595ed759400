import { expect, test } from '@playwright/test';
import { startAhead } from '../helpers/free-start';

/** The current state of one store for a party of 2, read from the stream as any client would. */
async function streamState(baseURL: string, storeId: string): Promise<{ free_tables: number; next_slots: string[] }> {
  const ctrl = new AbortController();
  const res = await fetch(`${baseURL}/api/availability/stream?stores=${storeId}&party=2`, { signal: ctrl.signal });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      const m = text.match(/^data: (\{.*\})$/m);
      if (m) return JSON.parse(m[1]!);
    }
  } finally {
    ctrl.abort();
  }
  throw new Error('stream ended without an event');
}

test('the listing updates a store in place when tables are booked, and drops it when full', async ({ page, baseURL }) => {
  await page.goto('/home');
  const firstBookable = page
    .locator('article[data-live-store]')
    .filter({ has: page.locator('[data-live-when-bookable]:visible') })
    .first();
  await expect(firstBookable).toBeVisible();
  const storeId = (await firstBookable.getAttribute('data-live-store'))!;
  const card = page.locator(`article[data-live-store="${storeId}"]`);
  const bookableRow = card.locator('[data-live-when-bookable]');
  const before = await bookableRow.innerText();

  // Each booking its own diner: one diner holds one table at a time at a store.
  let diners = 0;
  const book = async () => {
    diners++;
    const state = await streamState(baseURL!, storeId);
    if (!state.next_slots.length) return 409;
    const res = await fetch(`${baseURL}/api/guest-bookings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: baseURL! },
      body: JSON.stringify({
        store_id: Number(storeId),
        start: state.next_slots[0],
        party_size: 2,
        name: '試験 花子',
        name_kana: 'シケン ハナコ',
        phone: `090-1111-${2000 + diners}`,
        email: `live-e2e-${diners}@example.jp`,
      }),
    });
    return res.status;
  };

  expect(await book()).toBe(201);
  // No reload: the counts or the start times on the card change by themselves.
  await expect.poll(() => bookableRow.innerText()).not.toBe(before);

  for (let i = 0; i < 30 && (await book()) === 201; i++);
  // Full for the next hour: marked so, and gone from the "bookable now" list.
  await expect(card).toHaveAttribute('data-live-state', 'full');
  await expect(card.locator('[data-live-when-full]')).toBeAttached();
  await expect(bookableRow).toBeHidden();
  await expect(page.locator('#store-results li', { has: card })).toBeHidden();
});

/**
 * A diner of its own for each day: just before 05:00 today's last start and tomorrow's first overlap,
 * and one diner may not hold two overlapping tables at a store.
 */
const diner = (date: string | null) =>
  date ? { phone: '090-1111-3334', email: `live-day-${date}@example.jp` } : { phone: '090-1111-3333', email: 'live-day@example.jp' };

test('the store page redraws a day’s free starts in place when a table is booked, today or another day', async ({ page, baseURL }) => {
  // A 24-hour store: a small counter listed first at some hours can be full all the next day in the demo data.
  await page.goto('/stores?tag=open_24h');
  const storeId = (await page
    .locator('article[data-live-store]')
    .filter({ has: page.locator('[data-live-when-bookable]:visible') })
    .first()
    .getAttribute('data-live-store'))!;
  await page.goto(`/store/${storeId}`);
  await page.evaluate(() => ((window as { marker?: number }).marker = 1));
  const tomorrow = await page.getByLabel('日付').locator('option').nth(1).getAttribute('value');

  for (const date of [null, tomorrow]) {
    if (date) {
      await expect(page.locator('form[method="get"][data-autosubmit="on"]')).toHaveCount(1); // the form listens
      await page.getByLabel('日付').selectOption(date);
      await expect(page).toHaveURL(new RegExp(`date=${date}`));
      await page.evaluate(() => ((window as { marker?: number }).marker = 1));
    }
    // In the last minutes before 05:00 every start of today's business day has passed: the page,
    // rendered by the server, then has none to redraw, and tomorrow's still shows the redraw.
    if (!date && (await page.locator('a[data-slot]').count()) === 0) continue;
    // A start about to pass might be refused by the time the booking reaches the server: the first a few minutes ahead.
    const slot = await startAhead(page.locator('a[data-slot]'), 2);
    if (!date && !slot) continue;
    expect(slot, 'a start at least two minutes ahead').toBeDefined();
    const start = (await slot!.getAttribute('data-slot'))!;
    const shown = page.locator(`a[data-slot="${start}"]`);
    const before = await shown.innerText();
    const res = await fetch(`${baseURL}/api/guest-bookings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: baseURL! },
      body: JSON.stringify({ store_id: Number(storeId), start, party_size: 2, name: '試験 花子', name_kana: 'シケン ハナコ', ...diner(date) }),
    });
    expect(res.status).toBe(201);
    // One table fewer at that start (or the start gone when it was the last), with no reload. Read
    // in one step: a count then a read would wait forever for a start removed in between.
    await expect.poll(async () => (await shown.allInnerTexts())[0] ?? 'gone').not.toBe(before);
    expect(await page.evaluate(() => (window as { marker?: number }).marker)).toBe(1);
  }
});

// The browser side of live availability, in Chromium: EventSource under the page's CSP, the
// stream's framing and ids as a browser reads them, and the listing updating in place.
test.describe('live availability stream in the browser', () => {
  test('an EventSource on a product page receives one availability event per store', async ({ page }) => {
    await page.goto('/home');
    const events = await page.evaluate(
      () =>
        new Promise<{ lastEventId: string; data: unknown }[]>((resolve, reject) => {
          const got: { lastEventId: string; data: unknown }[] = [];
          const source = new EventSource('/api/availability/stream?stores=1,2,3&party=2');
          const timer = setTimeout(() => (source.close(), reject(new Error(`only ${got.length} events`))), 15_000);
          source.addEventListener('availability', (e) => {
            const m = e as MessageEvent<string>;
            got.push({ lastEventId: m.lastEventId, data: JSON.parse(m.data) });
            if (got.length === 3) {
              clearTimeout(timer);
              source.close();
              resolve(got);
            }
          });
        }),
    );
    expect(events.map((e) => (e.data as { store_id: number }).store_id).sort()).toEqual([1, 2, 3]);
    for (const e of events) {
      expect(e.lastEventId).toMatch(/^\d+-\d+$/);
      expect(e.data).toEqual({ store_id: expect.any(Number), free_tables: expect.any(Number), next_slots: expect.any(Array), rev: expect.any(Number) });
    }
  });

  test('a bad query is refused (EventSource gives up instead of retrying)', async ({ page }) => {
    await page.goto('/home');
    const state = await page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          const source = new EventSource('/api/availability/stream?stores=abc');
          // EventSource decides at the error event: CLOSED when it will not try again.
          source.onerror = () => resolve(source.readyState);
        }),
    );
    expect(state).toBe(2); // CLOSED: a non-200 answer is final for EventSource
  });
});
