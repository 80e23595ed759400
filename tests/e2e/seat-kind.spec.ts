import { expect, test } from '@playwright/test';

/**
 * A seat kind asked for stays with the diner (phone size, Japanese): the store page for 個室 shows
 * the room's starts, and the start tapped opens the booking form with 個室 chosen. The day is two
 * business days ahead, so any hour works.
 */

const DAY = 24 * 3600_000;
/** YYYY-MM-DD of the Tokyo business day `days` from now (the day starts at 05:00). */
const businessDay = (days: number) => new Date(Date.now() + 4 * 3600_000 + days * DAY).toISOString().slice(0, 10);

test('a start tapped on the store page for 個室 opens the booking form with 個室 chosen', async ({ page, request }) => {
  const date = businessDay(2);
  let storeId: number | undefined;
  for (let id = 1; id < 200 && storeId === undefined; id++) {
    const res = await request.get(`/api/stores/${id}/availability?date=${date}&party=2&seat=private_room`);
    if (res.ok() && ((await res.json()) as { slots: { free_tables: number }[] }).slots.some((s) => s.free_tables > 0)) storeId = id;
  }
  expect(storeId, 'a demo store with a private room free for two that day').toBeDefined();

  await page.goto(`/store/${storeId}?date=${date}&party=2&seat=private_room`);
  await expect(page.locator('[data-seat-kind="private_room"]')).toContainText('個室');
  await page.locator('[data-day-slots] a[data-slot]').first().click();
  await expect(page).toHaveURL(/seat=private_room/);
  // Hydrated, the form keeps the choice in the address and in the field.
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
  await expect(page.locator('select[name="seat_preference"]')).toHaveValue('private_room');
  await expect(page).toHaveURL(/seat=private_room/);
});
