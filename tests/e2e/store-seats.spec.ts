/**
 * The seat screens on the store host in Chromium at tablet size, in Japanese: staff add a table
 * from the list, change who it seats on its own screen, see it in the list; a bad value comes back
 * with the field's error and what was typed; both screens pass axe in light and dark, and the list
 * fits a 390 px phone. The table added is removed again (it was never booked), so the demo store
 * other tests book is left as it was.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { signInAsStaff } from '../helpers/store-sign-in';

test.use({ viewport: { width: 1024, height: 768 } });

const storeHost = `http://store.localhost:${process.env.E2E_PORT}`;

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

test('staff add a table, change its capacity, see it in the list, and a bad value keeps what was typed', async ({ page }) => {
  await signInAsStaff(page, storeHost);
  await page.getByRole('navigation', { name: '店舗メニュー' }).getByRole('link', { name: '席の管理' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('席の管理');

  const label = `E2E ${Date.now() % 100000}`;
  const add = page.getByTestId('add-table');
  await add.getByLabel('席の名前').fill(label);
  await add.getByLabel('席の種類').selectOption({ label: 'カウンター' });
  await add.getByLabel(/最小人数/).fill('1');
  await add.getByLabel(/最大人数/).fill('2');
  await add.getByRole('button', { name: '追加する' }).click();
  await expect(page.getByTestId('store-flash')).toHaveText(`「${label}」を追加しました`);
  const row = page.getByTestId('seat-row').filter({ hasText: label });
  await expect(row).toContainText('カウンター');
  await expect(row).toContainText('1〜2名');
  await expect(row).toContainText('ネット予約可');

  await row.getByRole('link', { name: `「${label}」を編集` }).click();
  await expect(page.getByTestId('seat-label')).toHaveText(label);
  const form = page.getByTestId('edit-table');
  // A smallest party above the largest: refused with the field's error, the typed values kept.
  await form.getByLabel(/最小人数/).fill('5');
  await form.getByLabel(/最大人数/).fill('3');
  await form.getByLabel(/最大人数/).press('Enter');
  await expect(form.getByText('最大人数は最小人数以上にしてください')).toBeVisible();
  await expect(form.getByLabel(/最小人数/)).toHaveValue('5');
  await expect(form.getByLabel(/最大人数/)).toHaveValue('3');
  await expect(form.getByLabel(/最大人数/)).toHaveAttribute('aria-invalid', 'true');

  await form.getByLabel(/最小人数/).fill('2');
  await form.getByLabel(/最大人数/).fill('4');
  await form.getByRole('button', { name: '保存する' }).click();
  await expect(page.getByTestId('store-flash')).toHaveText(`「${label}」を保存しました`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('席の管理');
  await expect(page.getByTestId('seat-row').filter({ hasText: label })).toContainText('2〜4名');

  // Never booked, it can be removed again.
  await page
    .getByTestId('seat-row')
    .filter({ hasText: label })
    .getByRole('link', { name: `「${label}」を編集` })
    .click();
  await page.getByRole('button', { name: '削除する' }).click();
  await expect(page.getByTestId('store-flash')).toHaveText(`「${label}」を削除しました`);
  await expect(page.getByTestId('seat-row').filter({ hasText: label })).toHaveCount(0);
});

test('the seat list fits a 390 px phone, and its forms are reached by keyboard', async ({ page }) => {
  await signInAsStaff(page, storeHost);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${storeHost}/list-seat-manage`);
  await expect(page.getByTestId('seat-row').first()).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  // From the table name, Tab walks the add form in order.
  await page.getByTestId('add-table').getByLabel('席の名前').focus();
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('add-table').getByLabel('席の種類')).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('add-table').getByLabel(/最小人数/)).toBeFocused();
});

for (const theme of ['light', 'dark'] as const) {
  test(`the seat screens have no serious accessibility faults, ${theme} theme`, async ({ page, context }) => {
    // Three pages through axe on a busy machine.
    test.setTimeout(180_000);
    await context.addCookies([{ name: 'theme', value: theme, url: storeHost }]);
    await signInAsStaff(page, storeHost);
    await page.goto(`${storeHost}/list-seat-manage`);
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    expect(['/list-seat-manage', await seriousViolations(page)]).toEqual(['/list-seat-manage', []]);
    const edit = (await page.getByTestId('seat-row').first().getByRole('link').getAttribute('href'))!;
    await page.goto(`${storeHost}${edit}`);
    await expect(page.getByTestId('edit-table')).toBeVisible();
    expect([edit, await seriousViolations(page)]).toEqual([edit, []]);
    // A refused form too: its error messages must be readable.
    await page
      .getByTestId('edit-table')
      .getByLabel(/最大人数/)
      .fill('0');
    await page.getByTestId('edit-table').getByRole('button', { name: '保存する' }).click();
    await expect(page.getByTestId('edit-table').getByRole('alert').first()).toBeVisible();
    expect([`${edit} refused`, await seriousViolations(page)]).toEqual([`${edit} refused`, []]);
  });
}
