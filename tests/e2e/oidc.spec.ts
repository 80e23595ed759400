/**
 * 「LINEでログイン」 in a real Chromium: the sign-in page's button, the provider's own login page (a
 * real OpenID provider, oidc-provider, running in this test), and back on Sugu signed in. The spec
 * runs its own server: the shared one has no provider configured.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, spawnServer, type SpawnedServer } from '../helpers/server';
import { oidcEnv, startTestProvider, type TestProvider } from '../helpers/oidc-provider';

let server: SpawnedServer | undefined;
let provider: TestProvider | undefined;
let dataDir = '';

test.describe.configure({ mode: 'serial', timeout: 120_000 });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  const providerPort = await freePort();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sugu-oidc-e2e-'));
  // The server finds the provider when the button is first pressed, so it may start first; its
  // own address (PUBLIC_ORIGIN unset: http://HOST:PORT) is the redirect URI registered below.
  server = await spawnServer({ ...oidcEnv(providerPort), DATA_DIR: dataDir, SUGU_LOG_REQUESTS: '0', SMTP_URL: '' });
  provider = await startTestProvider(providerPort, `${server.base}/auth/oidc/line/callback`);
});

test.afterAll(async () => {
  await server?.stop();
  await provider?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

test("「LINEでログイン」: the provider's login, then back on Sugu signed in", async ({ page }) => {
  const email = `line-e2e-${process.pid}-${Date.now()}@example.jp`;
  const id = provider!.account({ email, email_verified: true, name: 'ライン 花子' });
  await page.goto(`${server!.base}/auth/signin`);
  const line = page.getByRole('link', { name: 'LINEでログイン' });
  await expect(line).toBeVisible();
  // The demo account is named as one, not offered as another way to sign in.
  await expect(page.getByRole('button', { name: /デモアカウント.*お試し用/ })).toBeVisible();
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);

  await line.click();
  await page.locator('input[name="login"]').fill(id);
  await page.locator('input[name="password"]').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await expect(page).toHaveURL(`${server!.base}/home`);
  const me = await page.request.get(`${server!.base}/api/me`);
  expect(me.status()).toBe(200);
  expect(await me.json()).toMatchObject({ email, email_verified: true });
});

test('the account page lists LINE as linked and refuses to unlink the only way in', async ({ page }) => {
  const id = provider!.account({ email: `line-e2e-ways-${process.pid}-${Date.now()}@example.jp`, email_verified: true, name: 'ライン 太郎' });
  await page.goto(`${server!.base}/auth/oidc/line?next=%2Faccount-info`);
  await page.locator('input[name="login"]').fill(id);
  await page.locator('input[name="password"]').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await expect(page).toHaveURL(`${server!.base}/account-info`);
  const ways = page.getByRole('region', { name: 'ログイン連携' });
  await expect(ways.getByText('連携済み')).toBeVisible();
  await ways.getByRole('button', { name: 'LINEとの連携を解除' }).click();
  await expect(ways.getByRole('alert')).toContainText('LINEはこのアカウントにログインする唯一の方法のため、連携を解除できません。');
  // Still linked.
  await expect(ways.getByRole('button', { name: 'LINEとの連携を解除' })).toBeVisible();
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
});

/** Signs in at the test provider's own login page as `id` (the browser is there). */
async function providerLogin(page: import('@playwright/test').Page, id: string) {
  await page.locator('input[name="login"]').fill(id);
  await page.locator('input[name="password"]').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
}

test('an account made without an address shows none and asks for one; the added one awaits its link', async ({ page }) => {
  const id = provider!.account({ name: 'ライン 三郎' });
  await page.goto(`${server!.base}/auth/oidc/line?next=%2Faccount-info`);
  await providerLogin(page, id);
  await expect(page).toHaveURL(`${server!.base}/account-info`);
  await expect(page.getByRole('heading', { name: 'メールアドレスが未登録です' })).toBeVisible();
  const email = page.getByRole('textbox', { name: 'メールアドレス' });
  await expect(email).toHaveValue('');
  await expect(page.locator('body')).not.toContainText('.invalid');
  const added = `line-e2e-added-${process.pid}-${Date.now()}@example.jp`;
  await email.fill(added);
  await page.getByRole('button', { name: '保存' }).click();
  await expect(page.getByRole('heading', { name: 'メールアドレスが未登録です' })).toHaveCount(0);
  await expect(page.getByTestId('email-unverified')).toContainText(added);
  await expect(email).toHaveValue(added);
});

test('an account without a password leaves by signing in to LINE again', async ({ page }) => {
  const id = provider!.account({ email: `line-e2e-leave-${process.pid}-${Date.now()}@example.jp`, email_verified: true });
  await page.goto(`${server!.base}/auth/oidc/line`);
  await providerLogin(page, id);
  await expect(page).toHaveURL(`${server!.base}/home`);
  await page.goto(`${server!.base}/user-leave-association`);
  await expect(page.getByText('このアカウントにはパスワードがありません。')).toBeVisible();
  await expect(page.getByLabel('パスワード')).toHaveCount(0);
  await page.getByText('上記を確認し、退会します').click();
  await page.getByRole('button', { name: 'LINEで本人確認して退会する' }).click();
  await page.getByRole('link', { name: 'LINEへ進む' }).click();
  // The provider asks for the sign-in again, even though this browser signed in there a moment ago.
  await providerLogin(page, id);
  await expect(page).toHaveURL(`${server!.base}/home`);
  await expect(page.getByText('退会手続きが完了しました。')).toBeVisible();
  expect((await page.request.get(`${server!.base}/api/me`)).status()).toBe(401);
});
