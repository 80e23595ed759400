/** The booking form's start picker, used as a diner uses it. */
import { expect, type Page } from '@playwright/test';

/**
 * Chooses `start` (its ISO value) in the booking form: a long day's later hours are folded, so its
 * hour is opened first by tapping its summary when it is closed, then its time is tapped. Waits for
 * the start to be offered: while a new day or party loads, the previous one's starts are shown.
 */
export async function chooseStart(page: Page, start: string): Promise<void> {
  const slots = page.getByTestId('slots');
  const radio = slots.locator(`input[value="${start}"]`);
  await expect(radio).toBeAttached();
  // `has` is matched inside each candidate: the input itself, not the list's.
  const inside = page.locator(`input[value="${start}"]`);
  const hour = slots.locator('details', { has: inside });
  if ((await hour.count()) > 0 && !(await hour.evaluate((d) => (d as HTMLDetailsElement).open))) await hour.locator('summary').click();
  await slots.locator('label', { has: inside }).click();
  await expect(radio).toBeChecked();
}
