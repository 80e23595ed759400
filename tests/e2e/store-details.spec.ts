/**
 * The store's details screen in Chromium at tablet size, in Japanese, as the demo staff: Tuesday's
 * hours change and the six other rows stay as they were; a one-off closure is added and removed;
 * the cancellation-fee policy is edited, and a bad value comes back with what was typed and its
 * error; the screen and the edit page pass axe in both themes and fit a phone. The demo store is
 * shared with the other browser tests running beside this one, so every change here is put back
 * before the test ends, and the changes are small (half an hour off Tuesday's night, the last
 * bookable day closed).
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { businessDay } from '../helpers/free-start';
import { DEMO_STAFF } from '../../src/server/db/seed-data';
import { BOOKING_DAYS_AHEAD } from '../../src/server/availability/rules';
import { htmlValidateErrors, nuCheckerErrors } from '../helpers/html-validators';

test.use({ viewport: { width: 1024, height: 768 } });

const storeHost = `http://store.localhost:${process.env.E2E_PORT}`;
const FIELDS = ['closed', 'opens_0', 'closes_0', 'opens_1', 'closes_1', 'opens_2', 'closes_2'];

async function signIn(page: Page) {
  await page.goto(`${storeHost}/store-signin?next=%2Fdetail-store-manage`);
  await page.getByLabel('メールアドレス').fill(DEMO_STAFF.email);
  await page.getByLabel('パスワード').fill(DEMO_STAFF.password);
  await page.getByRole('button', { name: 'ログイン', exact: true }).click();
  await expect(page).toHaveURL(`${storeHost}/detail-store-manage`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('店舗情報・営業時間');
}

/** Every weekday row's fields as the form holds them, Sunday first. */
async function week(page: Page): Promise<string[][]> {
  const rows: string[][] = [];
  for (let weekday = 0; weekday < 7; weekday++) {
    const row = page.getByTestId(`hours-row-${weekday}`);
    const values: string[] = [];
    for (const name of FIELDS) {
      const field = row.locator(`[name="${name}"]`);
      // A blank opening row beyond the first unused one is not drawn: it reads as blank.
      if ((await field.count()) === 0) values.push('');
      else values.push(name === 'closed' ? String(await field.isChecked()) : await field.inputValue());
    }
    rows.push(values);
  }
  return rows;
}

async function seriousViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze();
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

test('staff change Tuesday’s hours without touching the other days, add a closure and edit the fee policy', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page);

  // Seven rows, Sunday (0) to Saturday (6), labelled in Japanese.
  const names = ['日曜日', '月曜日', '火曜日', '水曜日', '木曜日', '金曜日', '土曜日'];
  for (const [weekday, name] of names.entries()) await expect(page.getByTestId(`hours-row-${weekday}`).getByRole('heading', { level: 3 })).toHaveText(name);
  const before = await week(page);
  // The demo store is open around the clock.
  expect(before[2]).toEqual(['false', '00:00', '24:00', '', '', '', '']);

  const tuesday = page.getByTestId('hours-row-2');
  await tuesday.locator('[name="closes_0"]').fill('23:30');
  await tuesday.getByRole('button', { name: '火曜日を保存' }).click();
  await expect(page.getByTestId('store-flash')).toContainText('火曜日の営業時間を保存しました');
  await expect(tuesday.getByTestId('hours-now')).toHaveText('0:00〜23:30');
  await expect(page.getByTestId('hours-row-3').getByTestId('hours-now')).toHaveText('0:00〜24:00');
  const after = await week(page);
  expect(after[2]).toEqual(['false', '00:00', '23:30', '', '', '', '']);
  for (const weekday of [0, 1, 3, 4, 5, 6]) expect([weekday, after[weekday]]).toEqual([weekday, before[weekday]]);

  // Back to 24:00, from the keyboard: Enter in the field submits its row.
  await tuesday.locator('[name="closes_0"]').fill('24:00');
  await tuesday.locator('[name="closes_0"]').press('Enter');
  await expect(page.getByTestId('store-flash')).toContainText('火曜日の営業時間を保存しました');
  expect(await week(page)).toEqual(before);

  // A one-off closure on the last bookable day, then removed.
  const last = businessDay(BOOKING_DAYS_AHEAD);
  const note = `設備点検 ${Date.now() % 100000}`;
  const closureForm = page.getByTestId('closure-form');
  await closureForm.getByLabel('日付').fill(last);
  await expect(closureForm.getByLabel('臨時休業')).toBeChecked();
  await closureForm.getByLabel('メモ（任意）').fill(note);
  await closureForm.getByRole('button', { name: '登録' }).click();
  await expect(page.getByTestId('store-flash')).toContainText('臨時休業・営業時間の変更を登録しました');
  const closure = page.getByTestId('closure').filter({ hasText: note });
  await expect(closure).toContainText('臨時休業');
  await closure.getByRole('button', { name: /の登録を取り消す$/ }).click();
  await expect(page.getByTestId('store-flash')).toContainText('臨時休業・営業時間の変更を取り消しました');
  await expect(page.getByTestId('closure').filter({ hasText: note })).toHaveCount(0);

  // The fee policy: a bad value keeps what was typed with the field's error; then a good one.
  const policy = page.getByTestId('policy-form');
  const hoursField = policy.getByLabel('無料でキャンセルできる期限（予約の何時間前まで）');
  const feeField = policy.getByLabel('キャンセル料（お一人様・円）');
  const wording = policy.getByLabel('キャンセル規定の文面');
  const original = { hours: await hoursField.inputValue(), fee: await feeField.inputValue(), text: await wording.inputValue() };
  const text = `前日まで無料、当日はお一人様1,500円（${Date.now() % 100000}）`;
  await hoursField.fill('200');
  await feeField.fill('1500');
  await wording.fill(text);
  await policy.getByRole('button', { name: '規定を保存' }).click();
  const refused = page.getByTestId('policy-form');
  await expect(refused.getByRole('alert')).toHaveText('入力内容を確認してください');
  await expect(refused.getByLabel('無料でキャンセルできる期限（予約の何時間前まで）')).toHaveValue('200');
  await expect(refused.getByLabel('無料でキャンセルできる期限（予約の何時間前まで）')).toHaveAttribute('aria-invalid', 'true');
  await expect(refused.getByText('無料でキャンセルできる期限（予約の何時間前まで）は168以下にしてください')).toBeVisible();
  await expect(refused.getByLabel('キャンセル料（お一人様・円）')).toHaveValue('1500');
  await expect(refused.getByLabel('キャンセル規定の文面')).toHaveValue(text);

  await refused.getByLabel('無料でキャンセルできる期限（予約の何時間前まで）').fill('24');
  await refused.getByRole('button', { name: '規定を保存' }).click();
  await expect(page.getByTestId('store-flash')).toContainText('キャンセル料の規定を保存しました');
  await expect(page.getByTestId('policy-now')).toHaveText('現在の規定：ご予約の24時間前まで無料、それ以降はお一人様¥1,500');
  await expect(policy.getByLabel('キャンセル規定の文面')).toHaveValue(text);

  // Put the demo store's policy back for the other tests.
  await policy.getByLabel('無料でキャンセルできる期限（予約の何時間前まで）').fill(original.hours);
  await policy.getByLabel('キャンセル料（お一人様・円）').fill(original.fee);
  await policy.getByLabel('キャンセル規定の文面').fill(original.text);
  await policy.getByRole('button', { name: '規定を保存' }).click();
  await expect(page.getByTestId('store-flash')).toContainText('キャンセル料の規定を保存しました');
  await expect(policy.getByLabel('キャンセル規定の文面')).toHaveValue(original.text);
});

for (const theme of ['light', 'dark'] as const) {
  test(`the details screen and the edit page have no serious accessibility faults and fit a phone, ${theme} theme`, async ({ page, context }) => {
    test.setTimeout(120_000);
    await context.addCookies([{ name: 'theme', value: theme, url: storeHost }]);
    await signIn(page);
    await page.getByRole('link', { name: '店舗情報を編集' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('店舗情報の編集');
    const edit = new URL(page.url()).pathname;
    for (const path of ['/detail-store-manage', edit]) {
      for (const width of [1024, 390]) {
        await page.setViewportSize({ width, height: width === 390 ? 844 : 768 });
        await page.goto(`${storeHost}${path}`);
        await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
        expect([path, width, await seriousViolations(page)]).toEqual([path, width, []]);
        // Nothing wider than the screen.
        expect([path, width, await page.evaluate(() => document.documentElement.scrollWidth)]).toEqual([path, width, width]);
      }
    }
  });
}

test('the details screen, the edit page and a refused form are valid HTML', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page);
  const edit = await page.getByRole('link', { name: '店舗情報を編集' }).getAttribute('href');
  // Asked from the page (Node resolves no *.localhost name; the browser does), as the server wrote it.
  const ask = (path: string, form?: Record<string, string>) =>
    page.evaluate(
      async ([url, body]) => {
        const res = await fetch(url!, body ? { method: 'POST', body: new URLSearchParams(JSON.parse(body)), redirect: 'manual' } : {});
        return { status: res.status, html: await res.text() };
      },
      [path, form ? JSON.stringify(form) : ''] as const,
    );
  const get = async (path: string) => ({ name: `GET ${path}`, html: (await ask(path)).html });
  // Refused: 400 with what was typed (a fee far above the limit), nothing saved.
  const refused = await ask('/detail-store-manage', {
    action: 'policy',
    cancel_free_hours: '2',
    cancel_fee_yen: '9999999',
    cancellation_policy: '<b>太字</b>',
  });
  expect(refused.status).toBe(400);
  const pages = [await get('/detail-store-manage'), await get(edit!), { name: 'POST /detail-store-manage refused', html: refused.html }];
  for (const p of pages) expect(p.html.trimEnd(), `${p.name} ends with </html>`).toMatch(/<\/html>$/);
  expect(pages[2]!.html).toContain('value="9999999"');
  expect(pages[2]!.html).toContain('&lt;b&gt;太字&lt;/b&gt;');
  expect(await htmlValidateErrors(pages)).toEqual([]);
  expect(await nuCheckerErrors(pages)).toEqual([]);
});
