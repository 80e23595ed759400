import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';

/**
 * What a Japanese diner reads, in a phone-sized Chromium: one way to write times (翌0:15 under a
 * date, 9:00 without a leading zero), 今日 before today's date, no kana line repeating a katakana
 * name, labels that never break inside a word, a favourite button on one line, a search hint that
 * fits, and フリガナ kept in katakana.
 * Every store is found from the seed through the API, and every day used is a future business day,
 * so nothing depends on the hour the suite runs.
 */

type StoreJson = { id: number; name: string; name_kana: string; hours: { opens_min: number; closes_min: number }[] };

/** The first seeded store (by id) that `wanted` accepts. */
async function findStore(request: APIRequestContext, wanted: (s: StoreJson) => boolean): Promise<StoreJson> {
  for (let id = 1; id < 400; id++) {
    const res = await request.get(`/api/stores/${id}`);
    if (!res.ok()) continue;
    const store = (await res.json()) as StoreJson;
    if (wanted(store)) return store;
  }
  throw new Error('no such store in the seed');
}

const openAllDay = (s: StoreJson) => s.hours.length === 7 && s.hours.every((h) => h.opens_min === 0 && h.closes_min === 1440);
const closesAfterMidnight = (s: StoreJson) => s.hours.some((h) => h.closes_min > 1440 && h.closes_min < 2880);

/** The lines the text of each element takes: distinct line boxes of its text, measured in the page. */
const lineCounts = (loc: Locator) =>
  loc.evaluateAll((els) =>
    els.map((el) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      return new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size;
    }),
  );

/** A day's start times as shown (the first span's text), each with the instant it stands for, read in one step. */
const shownStarts = (page: Page, selector: string) =>
  page.locator(selector).evaluateAll((els) =>
    els.map((el) => ({
      iso: (el as HTMLElement).dataset.slot ?? el.querySelector('input')!.value,
      text: el.querySelector('span')!.textContent!.trim(),
    })),
  );

const CLOCK = /^\d{1,2}:\d{2}$/;
const NEXT_DAY_CLOCK = /^翌\d{1,2}:\d{2}$/;
const LEADING_ZERO = /(^|[^\d])0\d:\d{2}/;

test.describe('one way to write a time', () => {
  test('the store page: starts past midnight read 翌0:15 under their date, hours 翌4:00, never 04:00', async ({ page, request }) => {
    const store = await findStore(request, openAllDay);
    await page.goto(`/store/${store.id}`);
    // Tomorrow's business day: all its starts, the ones after midnight included, are still to come.
    const date = await page.locator('select[name="date"] option').nth(1).getAttribute('value');
    await page.goto(`/store/${store.id}?date=${date}`);
    const starts = await shownStarts(page, '[data-day-slots] a[data-slot]');
    const late = starts.filter((s) => s.iso.slice(0, 10) > date!);
    const evening = starts.filter((s) => s.iso.slice(0, 10) === date);
    expect(late.length).toBeGreaterThan(0);
    expect(evening.length).toBeGreaterThan(0);
    for (const s of late) expect(s.text, s.iso).toMatch(NEXT_DAY_CLOCK);
    for (const s of evening) expect(s.text, s.iso).toMatch(CLOCK);
    for (const s of starts) expect(s.text).not.toMatch(LEADING_ZERO);
    // Each one the clock time of its own instant (whatever other tests have booked that night).
    for (const s of late) expect(s.text, s.iso).toBe(`翌${Number(s.iso.slice(11, 13))}:${s.iso.slice(14, 16)}`);

    const night = await findStore(request, closesAfterMidnight);
    await page.goto(`/store/${night.id}`);
    const hours = await page.locator('tr[data-weekday] td').allInnerTexts();
    expect(hours.join(' ')).toMatch(/翌[1-9]:\d{2}/);
    expect(hours.join(' ')).not.toMatch(LEADING_ZERO);
  });

  test('the booking form: the same starts read the same way', async ({ page, request }) => {
    const store = await findStore(request, openAllDay);
    await page.goto(`/store/${store.id}/booking-without`);
    await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
    const dates = page.getByLabel('日付');
    await expect(dates.locator('option').first()).toHaveText(/^今日 \d+月\d+日\([日月火水木金土]\)$/);
    const date = (await dates.locator('option').nth(1).getAttribute('value'))!;
    await dates.selectOption(date);
    // Until the new day has loaded the form still shows the previous one, whose starts all fall
    // before the new day's calendar day ends (past 04:00 they may all read as that day): wait for
    // the new day's starts past its midnight, which no other day shows.
    const read = () => shownStarts(page, '[data-testid="slots"] label');
    await expect
      .poll(async () => {
        const shown = await read();
        return shown.some((s) => s.iso.slice(0, 10) > date) && shown.every((s) => s.iso.slice(0, 10) >= date);
      })
      .toBe(true);
    const starts = await read();
    const late = starts.filter((s) => s.iso.slice(0, 10) > date);
    expect(late.length).toBeGreaterThan(0);
    for (const s of late) expect(s.text, s.iso).toMatch(NEXT_DAY_CLOCK);
    for (const s of starts.filter((x) => x.iso.slice(0, 10) === date)) expect(s.text, s.iso).toMatch(CLOCK);
    // The time and its 翌 stay on one line in the narrow buttons, each laid out: the later hours are
    // folded, so each is opened as a diner opens it.
    const folded = page.getByTestId('slots').locator('details:not([open]) > summary');
    await expect(folded.first()).toBeVisible();
    for (let n = await folded.count(); n > 0; n--) await folded.first().click();
    await expect(folded).toHaveCount(0);
    expect(new Set(await lineCounts(page.locator('[data-testid="slots"] label > span:first-of-type')))).toEqual(new Set([1]));
  });
});

test('the store page: 今日 first, one wording for free tables, a button that says what it does, no repeated kana', async ({ page, request }) => {
  const katakana = await findStore(request, (s) => s.name === s.name_kana);
  await page.goto(`/store/${katakana.id}`);
  await expect(page.locator('select[name="date"] option').first()).toHaveText(/^今日 \d+月\d+日\([日月火水木金土]\)$/);
  await expect(page.locator('form[data-autosubmit]').getByRole('button', { name: '空席を確認' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(katakana.name);
  // The name is its own reading: the heading is the only place it is written.
  await expect(page.locator('header').getByText(katakana.name_kana, { exact: true })).toHaveCount(1);

  const kanji = await findStore(request, (s) => /[\u4E00-\u9FFF]/.test(s.name));
  await page.goto(`/store/${kanji.id}`);
  await expect(page.getByText(kanji.name_kana, { exact: true })).toBeVisible();

  // Tomorrow at a store open around the clock: a full day of starts, whatever the hour now.
  const allDay = await findStore(request, openAllDay);
  await page.goto(`/store/${allDay.id}`);
  const date = await page.locator('select[name="date"] option').nth(1).getAttribute('value');
  await page.goto(`/store/${allDay.id}?date=${date}`);
  // Later hours are folded into closed <details>: read the words, not what is drawn.
  const counts = await page.locator('[data-day-slots] a[data-slot] span:last-child').evaluateAll((els) => els.map((e) => e.textContent!.trim()));
  expect(counts.length).toBeGreaterThan(0);
  for (const c of counts) expect(c).toMatch(/^空席\d+卓$/);
  await expect(page.locator('[data-live-store] .badge-success').first()).toHaveText(/^空席\d+卓$/);
});

for (const width of [360, 412]) {
  test(`labels never break inside a word at ${width} px`, async ({ page, request }) => {
    await page.setViewportSize({ width, height: 800 });
    const store = await findStore(request, (s) => s.hours.length > 0);
    await page.goto(`/store/${store.id}`);
    // キャンセルポリシー, 営業時間 … each on one line; 渋谷駅 徒歩6分 may wrap only at its space.
    const terms = page.locator('dl dt');
    expect(await terms.count()).toBeGreaterThan(5);
    expect(new Set(await lineCounts(terms))).toEqual(new Set([1]));
    await page.goto('/home');
    const walks = await page.locator('article[data-store-id]').evaluateAll((cards) =>
      cards.flatMap((card) => {
        const text = [...card.querySelectorAll('span')]
          .map((s) => s.firstChild)
          .find((n) => n?.nodeType === Node.TEXT_NODE && /徒歩\d+分/.test(n.textContent ?? ''));
        if (!text) return [];
        const at = text.textContent!.search(/徒歩\d+分/);
        const range = document.createRange();
        range.setStart(text, at);
        range.setEnd(text, at + text.textContent!.slice(at).match(/徒歩\d+分/)![0].length);
        return [new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size];
      }),
    );
    expect(walks.length).toBeGreaterThan(3);
    expect(new Set(walks)).toEqual(new Set([1]));
  });
}

test('the favourite button stays on one line at 390 px in every language, added or not, and the page does not overflow', async ({ page, context, baseURL }) => {
  // Twenty store pages, one per language and state: 55 s of the default 60 on a busy CI machine.
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 390, height: 844 });
  // The longest name among the first stores: the button then sits below it rather than squeezing it.
  const names = await Promise.all(
    [1, 2, 3, 4, 5, 6, 7, 8].map(async (id) => ({ id, name: ((await (await page.request.get(`/api/stores/${id}`)).json()) as StoreJson).name })),
  );
  const store = names.reduce((a, b) => (b.name.length > a.name.length ? b : a));
  const broken: string[] = [];
  const check = async (state: string) => {
    for (const locale of ['ja', 'en', 'zh', 'ko', 'fr', 'de', 'es', 'pt', 'ru', 'ar']) {
      await context.addCookies([{ name: 'locale', value: locale, url: baseURL! }]);
      await page.goto(`/store/${store.id}`);
      await expect(page.locator('html')).toHaveAttribute('lang', locale);
      const label = page.locator('main [data-favourite-text]');
      await expect(label).toHaveCount(1);
      const [lines] = await lineCounts(label);
      const fits = await page.locator('main header:has(h1)').evaluate((header) => {
        const button = header.querySelector('button[data-favourite]')!.getBoundingClientRect();
        const name = header.querySelector('h1')!;
        const page = document.documentElement;
        return {
          inside: button.left >= 0 && button.right <= page.clientWidth,
          page: page.scrollWidth <= page.clientWidth,
          name: name.scrollWidth <= name.clientWidth,
        };
      });
      const text = (await label.innerText()).trim();
      if (lines !== 1 || !fits.inside || !fits.page || !fits.name)
        broken.push(`${state} ${locale} 「${text}」: ${lines} lines, in view ${fits.inside}, page fits ${fits.page}, name fits ${fits.name}`);
    }
  };
  await check('not added');
  const signupEmail = `one-line-${Date.now()}@example.jp`;
  const signup = await page.request.post('/api/users', { data: { name: '一行 花子', email: signupEmail, password: 'correct-horse-battery', agree: true } });
  expect(signup.status()).toBe(201);
  // Sign-up signs no one in (the mailed link does); the password just chosen does.
  expect((await page.request.post('/api/login', { data: { email: signupEmail, password: 'correct-horse-battery' } })).status()).toBe(200);
  expect((await page.request.put(`/api/favourites/${store.id}`, { headers: { origin: baseURL! } })).ok()).toBe(true);
  await check('added');
  expect(broken).toEqual([]);
});

test('the search hint fits its box at 360 px in every language', async ({ page, context }) => {
  await page.setViewportSize({ width: 360, height: 800 });
  const cut: string[] = [];
  for (const locale of ['ja', 'en', 'zh', 'ko', 'fr', 'de', 'es', 'pt', 'ru', 'ar']) {
    await context.addCookies([{ name: 'locale', value: locale, url: test.info().project.use.baseURL! }]);
    await page.goto('/home');
    await expect(page.locator('html')).toHaveAttribute('lang', locale);
    const fit = await page.locator('input[name="name"]').evaluate((input: HTMLInputElement) => {
      const style = getComputedStyle(input);
      const ctx = document.createElement('canvas').getContext('2d')!;
      ctx.font = style.font;
      return {
        text: ctx.measureText(input.placeholder).width,
        room: input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight),
        hint: input.placeholder,
      };
    });
    expect(fit.hint.length, locale).toBeGreaterThan(0);
    if (fit.text > fit.room) cut.push(`${locale}: ${fit.hint} (${Math.ceil(fit.text)} > ${fit.room} px)`);
  }
  expect(cut).toEqual([]);
});

test('フリガナ typed in hiragana becomes the katakana that is stored', async ({ page, request }) => {
  const store = await findStore(request, openAllDay);
  await page.goto(`/store/${store.id}/booking-without`);
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
  const kana = page.getByLabel('フリガナ');
  await kana.fill('やまだ　ﾊﾅｺ');
  await kana.blur();
  await expect(kana).toHaveValue('ヤマダ ハナコ');
});
