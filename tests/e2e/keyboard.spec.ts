import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { PAGE_SIZE } from '../../src/lib/contract/limits';

/**
 * The whole guest booking journey by keyboard alone (Tab, Enter, Space, arrows and typing; no
 * clicks, no `fill`): /home → a store card → the guest booking link → date, party, a time →
 * contact details → confirm → the confirmation with its booking code.
 */

const DAY = 24 * 3600_000;
/** YYYY-MM-DD of the Tokyo business day `days` from now (the day starts at 05:00). */
const businessDay = (days: number) => new Date(Date.now() + 4 * 3600_000 + days * DAY).toISOString().slice(0, 10);

type Focus = {
  tag: string;
  href: string | null;
  name: string | null;
  type: string | null;
  value: string | null;
  text: string;
  visible: boolean;
  ring: boolean;
};

/** What has the keyboard focus, and whether it (or the label around it) shows a focus indicator. */
function focused(page: Page): Promise<Focus | null> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return null;
    const shows = (n: Element | null) => {
      if (!n) return false;
      const s = getComputedStyle(n);
      return s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0;
    };
    const own = el.getBoundingClientRect();
    // A visually hidden control (sr-only radio) must show its focus on the label that stands for it.
    const hidden = own.width <= 1 || own.height <= 1;
    const box = (hidden ? (el.closest('label') ?? el) : el).getBoundingClientRect();
    return {
      tag: el.tagName.toLowerCase(),
      href: el.getAttribute('href'),
      name: el.getAttribute('name'),
      type: el.getAttribute('type'),
      value: (el as HTMLInputElement).value ?? null,
      text: (el.textContent ?? '').trim(),
      visible: box.width > 0 && box.height > 0,
      ring: hidden ? shows(el.closest('label')) : shows(el),
    };
  });
}

/** Presses Tab until the focused element matches; fails naming what was passed on the way. */
async function tabTo(page: Page, what: string, match: (f: Focus) => boolean, max = 120): Promise<Focus> {
  const seen: string[] = [];
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    const f = await focused(page);
    if (f && match(f)) {
      expect(f.visible, `${what} is focused but not visible`).toBe(true);
      expect(f.ring, `${what} shows no focus indicator`).toBe(true);
      return f;
    }
    seen.push(f ? `${f.tag}${f.name ? `[name=${f.name}]` : ''}${f.href ? `[href=${f.href}]` : ''}` : 'body');
  }
  throw new Error(`${what} not reached by Tab; passed: ${seen.join(' ')}`);
}

/** Picks `value` in the focused select with arrow keys and Enter (options are in ascending order). */
async function chooseByKeys(page: Page, current: Focus, value: string): Promise<void> {
  if (current.value === value) return;
  const before = Number.isNaN(Number(value)) ? current.value! < value : Number(current.value) < Number(value);
  const key = before ? 'ArrowDown' : 'ArrowUp';
  for (let i = 0; i < 30 && (await focused(page))!.value !== value; i++) await page.keyboard.press(key);
  await page.keyboard.press('Enter');
}

/** Stores open around the clock on `date` (from the seed's own API), with many free slots. */
async function allDayStores(request: APIRequestContext, date: string): Promise<Set<number>> {
  const out = new Set<number>();
  const list = (await (await request.get('/api/stores?per_page=50')).json()) as { items: { id: number }[] };
  for (const { id } of list.items) {
    const res = await request.get(`/api/stores/${id}/availability?date=${date}&party=2`);
    const { slots } = (await res.json()) as { slots: { free_tables: number }[] };
    if (slots.length >= 90 && slots.filter((s) => s.free_tables > 0).length > 60) out.add(id);
  }
  expect(out.size, 'a 24-hour store in the seed').toBeGreaterThan(0);
  return out;
}

test('guest booking journey by keyboard alone', async ({ page, request }) => {
  // About a hundred Tab presses, each a key press and a look at the focus (two round trips to the
  // browser): ~0.12 s apiece on a quiet 2-core machine, three times that when it is busy. The store
  // page alone holds a start link per free quarter hour before its 予約する link.
  test.setTimeout(240_000);
  const date = businessDay(5);
  const allDay = await allDayStores(request, date);
  // The listing's page that holds the first of them: which stores come first depends on the hour.
  const order = ((await (await request.get('/api/stores?per_page=50')).json()) as { items: { id: number }[] }).items.map((s) => s.id);
  const firstAllDay = order.findIndex((id) => allDay.has(id));
  expect(firstAllDay, 'a 24-hour store among the first 50 listed').toBeGreaterThanOrEqual(0);

  await page.goto(`/home?page=${Math.floor(firstAllDay / PAGE_SIZE) + 1}`);
  await page.waitForLoadState('load');
  const card = await tabTo(
    page,
    'a store card link to a 24-hour store',
    (f) => f.tag === 'a' && allDay.has(Number(/^\/store\/(\d+)(\?|$)/.exec(f.href ?? '')?.[1])),
    200,
  );
  const storeId = Number(/^\/store\/(\d+)/.exec(card.href!)![1]);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/store/${storeId}(\\?|$)`));
  await page.waitForLoadState('load');

  await tabTo(
    page,
    'the guest booking link',
    (f) => f.tag === 'a' && (f.href ?? '').startsWith(`/store/${storeId}/booking-without`) && !(f.href ?? '').includes('start='),
    200,
  );
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/store/${storeId}/booking-without`));
  await expect(page.getByRole('heading', { name: 'ログインせずに予約' })).toBeVisible();
  // The form is an island: wait until it is hydrated and has today's starts, or says there are none
  // (just before the 05:00 roll-over, today has none left).
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
  const noneToday = page.getByRole('status').filter({ hasText: '予約できる時間がありません' });
  await expect(page.getByTestId('slots').locator('input[type=radio]').or(noneToday).first()).toBeAttached();

  // Date and party: arrows open the picker of the focused select and move through it, Enter chooses.
  const date0 = await tabTo(page, 'the date select', (f) => f.tag === 'select' && f.name === 'date');
  await chooseByKeys(page, date0, date);
  await expect(page.getByLabel('日付')).toHaveValue(date);
  const party = await tabTo(page, 'the party select', (f) => f.tag === 'select' && f.name === 'party_size');
  await chooseByKeys(page, party, '3');
  await expect(page.getByLabel('人数', { exact: true })).toHaveValue('3');
  // The slots reload for the new date and party; wait for that date's times.
  const radios = page.getByTestId('slots').locator('input[type=radio]');
  await expect(radios.first()).toHaveAttribute('value', new RegExp(`^${date}T`));

  // Time: Tab into the radio group, then arrows to a later time, Space to be sure it is chosen.
  const first = await tabTo(page, 'the first time slot', (f) => f.tag === 'input' && f.type === 'radio' && f.name === 'start');
  for (let i = 0; i < 6; i++) await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Space');
  const chosen = (await focused(page))!;
  expect(chosen.name).toBe('start');
  expect(chosen.value).not.toBe(first.value);
  await expect(page.getByTestId('slots').locator(`input[value="${chosen.value}"]`)).toBeChecked();
  // Times are written as Sugu writes them: hours without a leading zero (6:30).
  const time = new Date(chosen.value!).toLocaleTimeString('ja-JP', { timeZone: 'Asia/Tokyo', hour: 'numeric', minute: '2-digit' });

  // Contact details, typed: a phone and e-mail of this run's own, so that a run again on the same
  // server is another diner, not a duplicate booking.
  const run = String(Date.now()).slice(-8);
  for (const [name, text] of [
    ['name', '鍵盤 花子'],
    ['name_kana', 'ケンバン ハナコ'],
    ['phone', `090-${run.slice(0, 4)}-${run.slice(4)}`],
    ['email', `keyboard-${run}@example.jp`],
  ] as const) {
    await tabTo(page, `the ${name} field`, (f) => f.tag === 'input' && f.name === name);
    await page.keyboard.type(text);
  }
  await expect(page.getByLabel('フリガナ')).toHaveValue('ケンバン ハナコ');

  await tabTo(page, 'the next button', (f) => f.tag === 'button' && f.text === '確認へ進む');
  await page.keyboard.press('Enter');
  const summary = page.getByTestId('booking-confirm');
  await expect(summary).toBeVisible();
  await expect(summary).toContainText(`${time}〜`);
  await expect(summary).toContainText('3名');

  await tabTo(page, 'the confirm button', (f) => f.tag === 'button' && f.text === 'この内容で予約する');
  await page.keyboard.press('Enter');

  const done = page.getByTestId('booking-done');
  await expect(done.getByRole('heading', { name: '予約が確定しました' })).toBeVisible();
  const code = (await done.getByTestId('summary').locator('dd').first().textContent())!.trim();
  expect(code).toMatch(/^SG-[A-Z0-9]{6}$/);
  await expect(done).toContainText(`${time}〜`);
});
