import { expect, test, type Page } from '@playwright/test';
import { businessDay, freeAtEight } from '../helpers/free-start';

/**
 * No page moves while it loads (DESIGN: CLS < 0.05; the bench's Lighthouse section measures every
 * product page). Here, on a phone in Japanese, the layout shifts the browser records from the first
 * paint until every island has taken over stay under 0.01: what they were was the sign-in card
 * moving up as a centred card grew (0.16) and the booking form's no-JavaScript button removed on
 * hydration (0.046). Without JavaScript that button is there; if the island's code fails to load it
 * comes back, as the plain form under it still works.
 */

test.use({ viewport: { width: 412, height: 823 }, isMobile: true, hasTouch: true, locale: 'ja-JP' });

type Shifts = { total: number; moved: string[] };

async function shiftsWhileLoading(page: Page, path: string): Promise<Shifts> {
  await page.addInitScript(() => {
    const w = window as unknown as { __shift: { total: number; moved: string[] } };
    w.__shift = { total: 0, moved: [] };
    // What moved, so a failure names the element and not only the score.
    const name = (n: Node | null) =>
      n instanceof Element
        ? `${n.tagName.toLowerCase()}${n.id ? `#${n.id}` : ''}.${[...n.classList].slice(0, 3).join('.')} “${(n.textContent ?? '').trim().slice(0, 30)}”`
        : String(n?.nodeName);
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as unknown as { value: number; sources?: { node: Node | null }[] }[]) {
        w.__shift.total += e.value;
        for (const s of e.sources ?? []) w.__shift.moved.push(`${e.value.toFixed(4)} ${name(s.node)}`);
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  await page.goto(path);
  // Every island has run its code (Astro drops `ssr` then), so a shift on hydration has happened.
  await page.waitForFunction(() => document.querySelectorAll('astro-island').length > 0 && !document.querySelector('astro-island[ssr]'));
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  return page.evaluate(() => (window as unknown as { __shift: Shifts }).__shift);
}

test('sign-in, sign-up and the guest booking form do not move while they load', async ({ context, request }) => {
  const { storeId, start } = await freeAtEight(request, businessDay(1), 0);
  for (const path of ['/auth/signin', '/auth/signup', `/store/${storeId}/booking-without?${new URLSearchParams({ start, party: '2' })}`]) {
    const page = await context.newPage();
    const shift = await shiftsWhileLoading(page, path);
    expect(shift.total, `${path}\n${shift.moved.join('\n')}`).toBeLessThan(0.01);
    await page.close();
  }
});

test('the booking form’s “show the starts” button: hidden where the island runs, there without JavaScript or when the island fails to load', async ({
  browser,
  baseURL,
  request,
}) => {
  const { storeId, start } = await freeAtEight(request, businessDay(1), 1);
  const path = `/store/${storeId}/booking-without?${new URLSearchParams({ start, party: '2' })}`;
  const button = (page: Page) => page.getByRole('button', { name: 'この日付と人数の空き時間を表示' });

  const withJs = await browser.newContext({ baseURL, locale: 'ja-JP' });
  const a = await withJs.newPage();
  await a.goto(path);
  await expect(a.getByRole('combobox', { name: '人数' })).toBeVisible();
  await expect(button(a)).toHaveCount(0);
  await withJs.close();

  const noJs = await browser.newContext({ baseURL, locale: 'ja-JP', javaScriptEnabled: false });
  const b = await noJs.newPage();
  await b.goto(path);
  await expect(button(b)).toBeVisible();
  await noJs.close();

  const failing = await browser.newContext({ baseURL, locale: 'ja-JP' });
  await failing.route(/\/_astro\/BookingWidget\.[^/?]+\.js(\?.*)?$/, (route) => route.abort());
  const c = await failing.newPage();
  await c.goto(path);
  await expect(c.getByRole('alert')).toBeVisible();
  await expect(button(c)).toBeVisible();
  await failing.close();
});
