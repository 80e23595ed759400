/** Finding a free table in the seeded data through the public availability API, for browser tests. */
import type { APIRequestContext, Locator } from '@playwright/test';

const DAY = 24 * 3600_000;
/** YYYY-MM-DD of the Tokyo business day `days` from now (the day starts at 05:00). */
export const businessDay = (days: number) => new Date(Date.now() + 9 * 3600_000 - 5 * 3600_000 + days * DAY).toISOString().slice(0, 10);

/** A free start at 20:00 on `date` for two, at the `skip`th store that has one (from the seed). */
export async function freeAtEight(request: APIRequestContext, date: string, skip: number): Promise<{ storeId: number; start: string }> {
  let seen = 0;
  for (let id = 1; id < 400; id++) {
    const res = await request.get(`/api/stores/${id}/availability?date=${date}&party=2`);
    if (!res.ok()) continue;
    const { slots } = (await res.json()) as { slots: { start: string; free_tables: number }[] };
    const slot = slots.find((s) => s.start.slice(11, 16) === '20:00' && s.free_tables >= 2);
    if (slot && seen++ >= skip) return { storeId: id, start: slot.start };
  }
  throw new Error('no store free at 20:00');
}

/**
 * The first of these start links (the address carries `start=`, or `data-slot` holds it) that is at
 * least `minutes` ahead, or undefined when none is. A start seconds away can pass while a journey
 * books it, and a past start is never bookable.
 */
export async function startAhead(links: Locator, minutes = 5): Promise<Locator | undefined> {
  // Read once the first is there: a page still loading has not drawn them yet.
  await links.first().waitFor({ state: 'attached' });
  const starts = await links.evaluateAll((els) =>
    els.map((e) => e.getAttribute('data-slot') ?? new URL((e as HTMLAnchorElement).href).searchParams.get('start')),
  );
  const i = starts.findIndex((s) => s !== null && Date.parse(s) >= Date.now() + minutes * 60_000);
  return i < 0 ? undefined : links.nth(i);
}

/**
 * The first business day at least `minDays` ahead that falls on `weekday` (0 = Sunday). A server
 * whose clock (SUGU_CLOCK) is set on it seeds the same demo bookings whatever day the suite runs:
 * the seed fills each store's open hours of its first days in an order set by the weekdays' hours.
 */
export function businessDayOn(weekday: number, minDays = 1): string {
  for (let n = minDays; ; n++) {
    const date = businessDay(n);
    if (new Date(`${date}T00:00:00Z`).getUTCDay() === weekday) return date;
  }
}
