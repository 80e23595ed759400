import { expect, test } from '@playwright/test';

// The browser side of live availability, in Chromium: EventSource under the page's CSP, the
// stream's framing, ids and retry as a browser reads them. (LiveCounts' in-place updates are
// exercised by the pages that render store cards with data-live-* attributes.)
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
      expect(e.data).toEqual({ store_id: expect.any(Number), free_tables: expect.any(Number), next_slots: expect.any(Array) });
    }
  });

  test('a bad query is refused (EventSource gives up instead of retrying)', async ({ page }) => {
    await page.goto('/home');
    const state = await page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          const source = new EventSource('/api/availability/stream?stores=abc');
          source.onerror = () => setTimeout(() => resolve(source.readyState), 100);
        }),
    );
    expect(state).toBe(2); // CLOSED: a non-200 answer is final for EventSource
  });
});
