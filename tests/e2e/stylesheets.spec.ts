import { expect, test, type Page } from '@playwright/test';

/** The stylesheets a page linked, and every class name their rules style (nested rules included). */
async function stylesheets(page: Page): Promise<{ hrefs: string[]; styled: Set<string> }> {
  const { hrefs, classes } = await page.evaluate(() => {
    const found = new Set<string>();
    const walk = (rules: CSSRuleList) => {
      for (const rule of Array.from(rules)) {
        if (rule instanceof CSSStyleRule) for (const m of rule.selectorText.matchAll(/\.((?:\\.|[\w-])+)/g)) found.add(m[1]!.replace(/\\(.)/g, '$1'));
        if ('cssRules' in rule) walk((rule as CSSGroupingRule).cssRules);
      }
    };
    const sheets = Array.from(document.styleSheets).filter((s) => s.href);
    for (const sheet of sheets) walk(sheet.cssRules);
    return { hrefs: sheets.map((s) => new URL(s.href!).pathname), classes: [...found] };
  });
  return { hrefs, styled: new Set(classes) };
}

/** Every class name on the page's elements. */
const classesOnPage = (page: Page) =>
  page.evaluate(() => [...new Set(Array.from(document.querySelectorAll('[class]')).flatMap((el) => Array.from(el.classList)))]);

test('product pages load the product stylesheet only, and it styles everything they use', async ({ page }) => {
  // The template's stylesheet carries every daisyUI component: the reference for what a class should look like.
  await page.goto('/dashboard/analytics');
  const template = await stylesheets(page);
  expect(template.hrefs).toHaveLength(1);
  expect(template.hrefs[0]).toMatch(/^\/_astro\/template\.[\w-]+\.css$/);

  const requested: string[] = [];
  page.on('request', (r) => {
    if (r.resourceType() === 'stylesheet') requested.push(new URL(r.url()).pathname);
  });
  const firstStore = await (async () => {
    await page.goto('/home');
    await expect(page.locator('#store-results article[data-store-id]').first()).toBeVisible();
    return page.locator('#store-results article[data-store-id]').first().getAttribute('data-store-id');
  })();
  const product = await stylesheets(page);
  expect(product.hrefs).toHaveLength(1);
  expect(product.hrefs[0]).toMatch(/^\/_astro\/product\.[\w-]+\.css$/);
  // Template-only rules are not in it (the settings drawer's colour swatches, daisyUI's menu and drawer).
  for (const templateOnly of ['tpl-swatch-blue', 'menu', 'drawer', 'modal'])
    expect([templateOnly, product.styled.has(templateOnly)]).toEqual([templateOnly, false]);
  // Nor the content pages' typography (src/styles/content.css): product pages do not grow with it,
  // so a list inside `prose` keeps the reset's look there.
  const proseList = await page.evaluate(() => {
    const article = Object.assign(document.createElement('article'), { className: 'prose', innerHTML: '<ul><li>x</li></ul>' });
    document.body.append(article);
    const style = getComputedStyle(article.querySelector('ul')!).listStyleType;
    article.remove();
    return style;
  });
  expect(proseList).toBe('none');

  const guestPages = [
    '/home',
    '/stores?name=%E7%84%BC%E8%82%89',
    `/store/${firstStore}`,
    `/store/${firstStore}/booking-without`,
    '/auth/signin',
    '/auth/signup',
    '/auth/forgot-password',
    '/utility/help',
    '/no-such-page',
  ];
  const signedInPages = [
    '/booking-list',
    '/favourite',
    '/viewed-list',
    '/account-info',
    '/user-change-password',
    '/user-leave-association',
    `/store/${firstStore}/booking`,
  ];
  for (const path of [...guestPages, 'sign-up', ...signedInPages]) {
    if (path === 'sign-up') {
      const email = `css-${Date.now()}@example.jp`;
      const res = await page.request.post('/api/users', { data: { name: '検査 花子', email, password: 'correct horse battery', agree: true } });
      expect(res.status()).toBe(201);
      // Sign-up signs no one in (the mailed link does); the password just chosen does.
      expect((await page.request.post('/api/login', { data: { email, password: 'correct horse battery' } })).status()).toBe(200);
      continue;
    }
    await page.goto(path);
    await page.waitForLoadState('load');
    expect(page.url()).not.toContain('/auth/signin?');
    const used = await classesOnPage(page);
    const { hrefs, styled } = await stylesheets(page);
    expect([path, hrefs]).toEqual([path, product.hrefs]);
    // A class the full stylesheet styles but the product one does not: a daisyUI component missing
    // from `include` in src/styles/product.css, or a utility Tailwind did not find.
    const unstyled = used.filter((c) => template.styled.has(c) && !styled.has(c));
    expect([path, unstyled]).toEqual([path, []]);
  }
  expect(requested.filter((p) => !p.startsWith('/_astro/product.'))).toEqual([]);
});

test('content pages add the typography stylesheet, styled from the theme: headings look like headings, lists have markers', async ({ page, context }) => {
  await page.goto('/home');
  const product = (await stylesheets(page)).hrefs;
  for (const theme of ['light', 'dark']) {
    await context.addCookies([{ name: 'theme', value: theme, url: page.url() }]);
    for (const path of ['/term', '/privacy', '/ecommerce', '/info-contracted-store']) {
      await page.goto(path);
      await page.waitForLoadState('load');
      const { hrefs, styled } = await stylesheets(page);
      // The product stylesheet, plus one that only these pages load (src/styles/content.css).
      expect([path, hrefs.length, hrefs.filter((h) => product.includes(h))]).toEqual([path, 2, product]);
      expect([path, styled.has('prose')]).toEqual([path, true]);
      const article = page.locator('main article.prose');
      const looks = await article.evaluate((el) => {
        const body = getComputedStyle(el);
        const h2 = el.querySelector('h2');
        const list = el.querySelector('ul, ol');
        return {
          headingLarger: h2
            ? parseFloat(getComputedStyle(h2).fontSize) >= 1.25 * parseFloat(body.fontSize) && Number(getComputedStyle(h2).fontWeight) >= 600
            : null,
          marker: list ? getComputedStyle(list).listStyleType : null,
          // Text takes the theme's own colour, not the plugin's fixed grey.
          themed: body.color === getComputedStyle(document.body).color,
        };
      });
      expect([path, theme, looks.themed]).toEqual([path, theme, true]);
      // 利用規約 and the privacy policy have 第N条-style headings and lists; the others may have neither.
      const both = path === '/term' || path === '/privacy';
      if (both || looks.headingLarger !== null) expect([path, theme, looks.headingLarger]).toEqual([path, theme, true]);
      if (both || looks.marker !== null) expect([path, theme, looks.marker === null || looks.marker === 'none']).toEqual([path, theme, false]);
    }
  }
});

test('the listing: the first photo is fetched first, the others lazily, all with their size; nothing shifts', async ({ page }) => {
  await page.addInitScript(() => {
    (window as unknown as { __shift: number }).__shift = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
        if (!entry.hadRecentInput) (window as unknown as { __shift: number }).__shift += entry.value;
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  await page.goto('/home');
  const photos = page.locator('#store-results article[data-store-id] figure img');
  await expect(photos.first()).toBeVisible();
  const attrs = await photos.evaluateAll((imgs) =>
    imgs.map((img) => ({
      loading: img.getAttribute('loading'),
      priority: img.getAttribute('fetchpriority'),
      width: img.getAttribute('width'),
      height: img.getAttribute('height'),
    })),
  );
  expect(attrs.length).toBeGreaterThan(3);
  expect(attrs[0]).toMatchObject({ loading: 'eager', priority: 'high' });
  for (const a of attrs.slice(1)) expect(a).toMatchObject({ loading: 'lazy', priority: null });
  for (const a of attrs) expect(Number(a.width) * Number(a.height)).toBeGreaterThan(0);
  // The product stylesheet draws the card: the photo fills its column and the card has its frame.
  const box = await photos.first().boundingBox();
  expect(box!.width).toBeGreaterThan(80);
  expect(box!.height).toBeGreaterThan(80);
  await expect(page.locator('#store-results article.card').first()).toHaveCSS('display', 'flex');
  await page.evaluate(() => document.fonts.ready);
  await expect.poll(() => page.evaluate(() => document.readyState)).toBe('complete');
  // …and after the live counts have replaced what the server rendered (src/components/LiveCounts.astro).
  await expect(page.locator('#store-results article[data-live-state]').first()).toBeAttached();
  expect(await page.evaluate(() => (window as unknown as { __shift: number }).__shift)).toBeLessThan(0.05);
});

test('the store page loads Leaflet and its stylesheet only when the map is shown', async ({ page }) => {
  const css: string[] = [];
  page.on('request', (r) => {
    if (r.resourceType() === 'stylesheet') css.push(new URL(r.url()).pathname);
  });
  await page.goto('/home');
  const id = await page.locator('#store-results article[data-store-id]').first().getAttribute('data-store-id');
  await page.goto(`/store/${id}`);
  expect(css.some((p) => p.includes('leaflet'))).toBe(false);
  await expect(page.locator('link[rel=stylesheet][href*="leaflet"]')).toHaveCount(0);
  const map = page.getByRole('region', { name: /の地図$/ });
  await map.scrollIntoViewIfNeeded();
  await expect(map).toHaveAttribute('data-map-ready', 'true');
  await expect(page.locator('link[rel=stylesheet][href*="leaflet"]')).toHaveCount(1);
  // Leaflet's own rules apply: its panes are positioned absolutely.
  await expect(page.locator('.leaflet-pane').first()).toHaveCSS('position', 'absolute');
});
