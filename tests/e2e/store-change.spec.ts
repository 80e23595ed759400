/**
 * Changing a booking from the day's ledger, in Chromium at tablet size, in Japanese, with and
 * without JavaScript: staff open a booking's change form from the keyboard, move it to another
 * time and table and see the row say so; then a change the rules refuse (a party too big for the
 * table) comes back with the field's error and what was typed; last, the store opens the cancel
 * form, is refused a reason of blanks, cancels it with a reason and undoes that. The day is two
 * days ahead, so the booking's start is ahead at whatever hour the test runs.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { businessDay } from '../helpers/free-start';
import { signInAsStaff } from '../helpers/store-sign-in';

const storeHost = `http://store.localhost:${process.env.E2E_PORT}`;
const day = businessDay(2);
const MINUTE = 60_000;

type Table = {
  id: number;
  label: string;
  kind: string;
  min_party: number;
  max_party: number;
};
type Booking = {
  id: number;
  start: string;
  end: string;
  status: string;
  table: { id: number };
};

/** Serious faults axe finds in `selector` (the booking's row: the rest of the ledger is checked in store-host.spec.ts). */
async function seriousViolations(page: Page, selector: string) {
  const { violations } = await new AxeBuilder({ page }).include(selector).analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(' '))
          .join(' | ')}`,
    );
}

/** "HH:MM" in Tokyo, as a time field holds it. */
const hm = (iso: string) => new Date(Date.parse(iso) + 9 * 60 * MINUTE).toISOString().slice(11, 16);
/** "H:MM", as the ledger writes it. */
const shown = (iso: string) => hm(iso).replace(/^0/, '');

for (const javaScriptEnabled of [true, false]) {
  test(`staff change a booking's time and table from the ledger; a refused change keeps what was typed; a store cancel with a reason is undone (JavaScript ${javaScriptEnabled ? 'on' : 'off'})`, async ({
    browser,
    baseURL,
  }) => {
    test.setTimeout(180_000);
    const context = await browser.newContext({
      javaScriptEnabled,
      viewport: { width: 1024, height: 768 },
      locale: 'ja-JP',
      timezoneId: 'Asia/Tokyo',
    });
    const page = await context.newPage();
    await signInAsStaff(page, storeHost);
    await page.goto(`${storeHost}/list-booking-manage?date=${day}`);
    const storeId = Number((await page.locator('[data-ledger]').getAttribute('data-stream'))!.match(/store_id=(\d+)/)![1]);

    // A diner's booking for two at the day's first free start with a later free start to move to.
    const { slots } = (await (await page.request.get(`${baseURL}/api/stores/${storeId}/availability?date=${day}&party=2`)).json()) as {
      slots: { start: string; free_tables: number }[];
    };
    const free = slots.filter((s) => s.free_tables > 0);
    const first = free[javaScriptEnabled ? 0 : 1]!;
    const name = `変更 ${javaScriptEnabled ? 'あり' : 'なし'} ${Date.now() % 100000}`;
    const made = await page.request.post(`${baseURL}/api/guest-bookings`, {
      headers: { origin: baseURL! },
      data: {
        store_id: storeId,
        start: first.start,
        party_size: 2,
        name,
        name_kana: 'ヘンコウ テスト',
        phone: `090-4${javaScriptEnabled ? 1 : 2}00-${String(Date.now() % 10000).padStart(4, '0')}`,
        email: `change-${javaScriptEnabled}-${Date.now()}@example.jp`,
      },
    });
    expect(made.status()).toBe(201);
    const { id } = (await made.json()) as { id: number };

    // A later start (an hour on at least) and another table that fits two and is free for the whole stay then, by the store's own lists.
    // (Node does not resolve *.localhost as Chromium does: the store API is asked at the loopback address, by its host name.)
    const cookie = (await context.cookies(storeHost)).map((c) => `${c.name}=${c.value}`).join('; ');
    const storeApi = async (path: string) =>
      (
        await page.request.get(`${baseURL}${path}`, {
          headers: { host: new URL(storeHost).host, cookie },
        })
      ).json();
    const tables = (
      (await storeApi(`/api/store/tables?store_id=${storeId}`)) as {
        items: Table[];
      }
    ).items;
    const held = ((await storeApi(`/api/store/bookings?store_id=${storeId}&date=${day}`)) as { items: Booking[] }).items;
    const mine = held.find((b) => b.id === id)!;
    const stay = Date.parse(mine.end) - Date.parse(mine.start);
    const busy = (t: Table, from: number) =>
      held.some((b) => b.id !== id && b.status === 'confirmed' && b.table.id === t.id && Date.parse(b.start) < from + stay && Date.parse(b.end) > from);
    let target: { start: string } | undefined;
    let other: Table | undefined;
    // The two variants run side by side at the same store: one looks from the earliest later start, the
    // other from the latest, so they do not both move onto the same table at the same time.
    const later = free.filter((x) => Date.parse(x.start) >= Date.parse(first.start) + 60 * MINUTE);
    for (const slot of javaScriptEnabled ? later : later.reverse()) {
      other = tables.find((t) => t.id !== mine.table.id && t.min_party <= 2 && t.max_party >= 2 && !busy(t, Date.parse(slot.start)));
      if (other) {
        target = slot;
        break;
      }
    }
    expect(other).toBeDefined();
    const current = mine.table.id;

    await page.reload();
    const row = page.locator(`[data-booking="${id}"]`);
    await expect(row).toContainText(name);
    // From the keyboard: the change form opens with Enter on its link (only the booking asked for
    // carries a form), and closes again without a change.
    const form = row.getByTestId('change-booking');
    await expect(page.getByTestId('change-booking')).toHaveCount(0);
    await row.getByRole('link', { name: '変更', exact: true }).focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(`${storeHost}/list-booking-manage?date=${day}&change=${id}#change-${id}`);
    await expect(page.getByTestId('change-booking')).toHaveCount(1);
    await form.getByRole('link', { name: '変更をやめる' }).click();
    await expect(page).toHaveURL(`${storeHost}/list-booking-manage?date=${day}#booking-${id}`);
    await expect(form).toHaveCount(0);
    await row.getByRole('link', { name: '変更', exact: true }).click();
    await expect(form.getByLabel('時刻')).toHaveValue(hm(first.start));
    await expect(form.getByLabel('席')).toHaveValue(String(current));
    // (axe runs as a script in the page: only where scripts run.)
    if (javaScriptEnabled) expect(await seriousViolations(page, `[data-booking="${id}"]`)).toEqual([]);

    await form.getByLabel('時刻').fill(hm(target!.start));
    await form.getByLabel('席').selectOption(String(other!.id));
    await form.getByRole('button', { name: 'この内容に変更' }).click();
    await expect(page.getByTestId('store-flash')).toHaveText(`${name} 様の予約を変更しました`);
    await expect(page).toHaveURL(`${storeHost}/list-booking-manage?date=${day}`);
    await expect(row.locator('p').first()).toContainText(`${shown(target!.start)}〜`);
    await expect(row.getByTestId('booking-table')).toContainText(other!.label);

    // Refused: more people than the chosen table seats. The form comes back open with what was typed.
    const tooMany = String(other!.max_party + 1);
    await row.getByRole('link', { name: '変更', exact: true }).click();
    await form.getByLabel('人数').fill(tooMany);
    await form.getByRole('button', { name: 'この内容に変更' }).click();
    await expect(row.getByRole('alert')).toBeVisible();
    await expect(form).toBeVisible();
    await expect(form.getByLabel('席')).toHaveAccessibleDescription('この席はこの人数に合いません');
    await expect(form.getByLabel('人数')).toHaveValue(tooMany);
    await expect(form.getByLabel('時刻')).toHaveValue(hm(target!.start));
    await expect(form.getByLabel('席')).toHaveValue(String(other!.id));
    // Nothing was changed.
    await expect(row.getByTestId('booking-party')).toHaveText('2名');
    if (javaScriptEnabled) expect(await seriousViolations(page, `[data-booking="${id}"]`)).toEqual([]);

    // At phone width the page, the open form with it, fits the screen.
    if (javaScriptEnabled) {
      await page.setViewportSize({ width: 390, height: 844 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    }

    // The store cancels it with a reason from its row, then takes that back within the undo window.
    // Its form is drawn only once asked for (a reason to write), and a reason of blanks comes back refused with what was typed.
    await page.goto(`${storeHost}/list-booking-manage?date=${day}`);
    await expect(page.getByTestId('cancel-booking')).toHaveCount(0);
    await row.getByRole('link', { name: 'キャンセル', exact: true }).click();
    await expect(page).toHaveURL(`${storeHost}/list-booking-manage?date=${day}&cancel=${id}#cancel-${id}`);
    await expect(page.getByTestId('cancel-booking')).toHaveCount(1);
    await row.getByLabel('キャンセル理由（お客様にメールでお伝えします）').fill('   ');
    await row.getByRole('button', { name: '店舗都合でキャンセル' }).click();
    await expect(row.getByLabel('キャンセル理由（お客様にメールでお伝えします）')).toHaveAccessibleDescription(/理由を入力してください/);
    await expect(row.getByLabel('キャンセル理由（お客様にメールでお伝えします）')).toHaveValue('   ');
    await expect(row.getByText('来店待ち', { exact: true })).toBeVisible();
    if (javaScriptEnabled) expect(await seriousViolations(page, `[data-booking="${id}"]`)).toEqual([]);
    await row.getByLabel('キャンセル理由（お客様にメールでお伝えします）').fill('設備の故障のため');
    await row.getByRole('button', { name: '店舗都合でキャンセル' }).click();
    await expect(page.getByTestId('store-flash')).toHaveText('予約をキャンセルしました');
    await expect(row.getByText('店舗都合でキャンセル', { exact: true })).toBeVisible();
    await expect(row).toContainText('設備の故障のため');
    await row.getByRole('button', { name: '取り消す' }).click();
    await expect(page.getByTestId('store-flash')).toHaveText('記録を取り消しました');
    await expect(row.getByText('来店待ち', { exact: true })).toBeVisible();
    await expect(row.getByRole('link', { name: 'キャンセル', exact: true })).toBeVisible();
    await context.close();
  });
}
