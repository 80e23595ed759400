import { expect, test, type Page } from '@playwright/test';
import { businessDay, freeAtEight } from '../helpers/free-start';
import { storePin } from '../helpers/map';

/**
 * Every visible thing a diner taps on a product page is at least 44×44 CSS px (WCAG 2.5.5), on a
 * 390×844 phone in Japanese, signed out and signed in. Measured: links, buttons, form fields,
 * <summary>, role=button, and a checkbox's or radio's label (the label is what a finger hits; a
 * visually hidden box inside it is not measured). Exempt, as WCAG 2.5.8 exempts them: a link set
 * inline inside running text (an inline element whose block holds other text too), whose height is
 * the line's. Visually hidden elements (1 px boxes) are not targets. A link stretched over its card
 * (an absolutely positioned ::after) is measured as the box it covers, and a field drawn by the
 * label that wraps it (daisyUI's `label.input`, whose border is what the diner sees) as that label.
 * The results map is measured open, with its zoom buttons and markers, and with a marker's popup open.
 */

const MIN = 44;
test.use({ viewport: { width: 390, height: 844 }, locale: 'ja-JP' });

const BOTH = ['/home', '/stores', '/stores?name=%E7%84%BC%E8%82%89', '/areas/1', '/store/1', '/booking-list', '/term', '/privacy', '/no-such-page'];
const SIGNED_OUT = ['/store/1/booking-without', '/auth/signin', '/auth/signup', '/auth/forgot-password', '/auth/reset-password'];
const SIGNED_IN = ['/store/1/booking', '/favourite', '/viewed-list', '/account-info', '/user-change-password', '/user-leave-association'];

/** `path`'s targets smaller than MIN×MIN, as "path: what (w×h)"; measured once `ready` (a selector) shows, if given. */
async function smallTargets(page: Page, path: string, ready?: string): Promise<string[]> {
  await page.goto(path);
  await expect(page.locator('astro-island[ssr]:not([client="visible"])')).toHaveCount(0);
  if (ready) await expect(page.locator(ready).first()).toBeVisible();
  return measure(page, path);
}

/** The current page's targets smaller than MIN×MIN, named under `what`. */
async function measure(page: Page, what: string): Promise<string[]> {
  const small = await page.evaluate((min) => {
    const TARGETS = 'a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button], label';
    const out: string[] = [];
    const choice = (el: Element) => el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio');
    const blockOf = (el: Element) => {
      let b = el.parentElement;
      while (b && getComputedStyle(b).display.startsWith('inline')) b = b.parentElement;
      return b;
    };
    const inRunningText = (el: Element) => {
      if (el.tagName !== 'A' || getComputedStyle(el).display !== 'inline') return false;
      const block = blockOf(el);
      return !!block && (block.textContent ?? '').replace(/\s+/g, '').length > (el.textContent ?? '').replace(/\s+/g, '').length;
    };
    for (const el of document.querySelectorAll(TARGETS)) {
      // A label counts only as a checkbox's or radio's target; that box is then measured through it.
      if (el.tagName === 'LABEL') {
        const control = (el as HTMLLabelElement).control;
        if (!control || !choice(control)) continue;
      } else if (choice(el) && (el as HTMLInputElement).labels?.length) continue;
      if (!el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
      const after = getComputedStyle(el, '::after');
      const stretched = after.content !== 'none' && after.position === 'absolute' && (el as HTMLElement).offsetParent;
      const drawnBy = el.parentElement?.matches('label.input') ? el.parentElement : null;
      const r = (stretched || drawnBy || el).getBoundingClientRect();
      if (r.width <= 1 || r.height <= 1 || inRunningText(el)) continue;
      // Tolerance for sub-pixel layout (e.g. 43.99 from rem arithmetic).
      if (r.width + 0.5 >= min && r.height + 0.5 >= min) continue;
      const name = (el.getAttribute('aria-label') || (el as HTMLElement).innerText || el.getAttribute('name') || el.getAttribute('placeholder') || '')
        .trim()
        .replace(/\s+/g, ' ')
        .slice(0, 30);
      out.push(`<${el.tagName.toLowerCase()}> "${name}" ${Math.round(r.width)}×${Math.round(r.height)}`);
    }
    return out;
  }, MIN);
  return small.map((s) => `${what}: ${s}`);
}

test('signed out: every tap target on the product pages is at least 44×44 px', async ({ page }) => {
  const { storeId, start } = await freeAtEight(page.request, businessDay(6), 10);
  // A guest booking made on this device, through its form: the confirmation is measured, and 予約一覧 then lists it with its buttons.
  await page.goto(`/store/${storeId}/booking-without?party=2&start=${encodeURIComponent(start)}`);
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
  await page.getByLabel('お名前').fill('指先 太郎');
  await page.getByLabel('フリガナ').fill('ユビサキ タロウ');
  // A phone and e-mail of this run's own: a run again on the same server is another diner, not a duplicate booking.
  const run = String(Date.now()).slice(-8);
  await page.getByLabel('電話番号').fill(`090-${run.slice(0, 4)}-${run.slice(4)}`);
  await page.getByLabel('メールアドレス').fill(`taps-${run}@example.jp`);
  await page.getByRole('button', { name: '確認へ進む' }).click();
  const booked = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/guest-bookings');
  await page.getByRole('button', { name: 'この内容で予約する' }).click();
  expect((await booked).status()).toBe(201);
  await expect(page.getByTestId('booking-done')).toBeVisible();
  const small = await measure(page, `guest booked /store/${storeId}/booking-without`);
  for (const path of [...BOTH, ...SIGNED_OUT, `/store/${storeId}/booking-without?party=2&start=${encodeURIComponent(start)}`]) {
    small.push(...(await smallTargets(page, path, path === '/booking-list' ? '[data-testid="booking-item"]' : undefined)));
  }
  small.push(...(await openMap(page)), ...(await storeMap(page, storeId)), ...(await foldedStarts(page)));
  expect(small).toEqual([]);
});

/** A 24-hour store's booking form for tomorrow, its later hours folded, then one of them opened: its targets smaller than MIN×MIN. */
async function foldedStarts(page: Page): Promise<string[]> {
  const date = businessDay(2);
  let storeId = 0;
  for (let id = 1; id < 400 && !storeId; id++) {
    const res = await page.request.get(`/api/stores/${id}/availability?date=${date}&party=2`);
    if (res.ok() && ((await res.json()) as { slots: unknown[] }).slots.length >= 90) storeId = id;
  }
  expect(storeId, 'a 24-hour store in the seed').toBeGreaterThan(0);
  const path = `/store/${storeId}/booking-without?party=2&date=${date}`;
  const small = await smallTargets(page, path, '[data-testid="slots"] details > summary');
  const hours = page.getByTestId('slots').locator('details');
  await hours.nth(2).locator('summary').click();
  await expect(hours.nth(2).locator('label').first()).toBeVisible();
  return [...small, ...(await measure(page, `${path} with an hour open`))];
}

/** A store page with its map scrolled into view (Leaflet loads then) and its marker's popup open: its targets smaller than MIN×MIN. */
async function storeMap(page: Page, storeId: number): Promise<string[]> {
  await page.goto(`/store/${storeId}`);
  const map = page.getByRole('region', { name: /の地図$/ });
  await map.scrollIntoViewIfNeeded();
  await expect(map).toHaveAttribute('data-map-ready', 'true');
  await expect(map.getByRole('button', { name: '拡大' })).toBeVisible();
  await map.locator('.leaflet-marker-icon').press('Enter');
  await expect(map.getByRole('button', { name: '閉じる' })).toBeVisible();
  return measure(page, `/store/${storeId} with its map's popup open`);
}

/** The results map opened (Leaflet, loaded on the tap) with its zoom buttons and markers shown, then a popup: its targets smaller than MIN×MIN. */
async function openMap(page: Page): Promise<string[]> {
  // No tile server in tests: tiles answer with a blank image, and nothing else leaves the machine.
  await page.route(/^https?:\/\/(?!127\.0\.0\.1)/, (r) =>
    r.fulfill({
      status: 200,
      contentType: 'image/png',
      body: Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64'),
    }),
  );
  await page.goto('/stores?tag=open_24h');
  await page.getByRole('button', { name: '地図で見る' }).click();
  const map = page.getByRole('region', { name: '検索結果の地図' });
  await expect(map.getByRole('button', { name: '拡大' })).toBeVisible();
  await expect(map.getByRole('button', { name: '縮小' })).toBeVisible();
  await expect(map.locator('.leaflet-marker-icon').first()).toBeVisible();
  const small = await measure(page, '/stores?tag=open_24h with the map open');
  // A store's popup, opened from the keyboard, with its close button.
  await (await storePin(map)).press('Enter');
  await expect(map.getByRole('button', { name: '閉じる' })).toBeVisible();
  return [...small, ...(await measure(page, '/stores?tag=open_24h with a marker’s popup open'))];
}

test('signed in: every tap target on the product pages is at least 44×44 px', async ({ page, baseURL }) => {
  const signupEmail = `taps-${Date.now()}@example.jp`;
  const signup = await page.request.post('/api/users', { data: { name: '指先 花子', email: signupEmail, password: 'correct-horse-battery', agree: true } });
  expect(signup.status()).toBe(201);
  // Sign-up signs no one in (the mailed link does); the password just chosen does.
  expect((await page.request.post('/api/login', { data: { email: signupEmail, password: 'correct-horse-battery' } })).status()).toBe(200);
  const { storeId, start } = await freeAtEight(page.request, businessDay(6), 11);
  expect((await page.request.put(`/api/favourites/${storeId}`, { headers: { origin: baseURL! } })).ok()).toBe(true);
  const booked = await page.request.post('/api/bookings', { data: { store_id: storeId, start, party_size: 2 } });
  expect(booked.status()).toBe(201);
  const { id } = (await booked.json()) as { id: number };
  const small: string[] = [];
  const paths = [...BOTH, ...SIGNED_IN, `/store/${storeId}`, `/store/${storeId}/booking/complete/${id}`, `/store/${storeId}/booking/edit/${id}`];
  for (const path of paths) small.push(...(await smallTargets(page, path)));
  expect(small).toEqual([]);
});
