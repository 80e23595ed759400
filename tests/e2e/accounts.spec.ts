/**
 * The accounts journey in a real Chromium: sign up → the "check your mail" notice → the mailed
 * verification link → verified and signed in → アカウント tab → sign out → forgot password → the
 * e-mailed link → reset → sign in → change password → leave.
 *
 * Why this spec runs its own server on PostgreSQL: the reset link exists only in the mail outbox
 * (no product screen shows it, nor should one). The shared e2e server's embedded database is
 * locked by that server and its socket takes one client, so a test cannot read it while it runs.
 * A throwaway PostgreSQL cluster can be read beside the server, so the test takes the link from
 * `mail_outbox` exactly as a mail would carry it, with nothing added to the product for tests.
 */
import { expect, test, type Page } from '@playwright/test';
import crypto from 'node:crypto';
import postgres from 'postgres';
import { createDatabase, startPostgres, type PgCluster } from '../helpers/postgres';
import { spawnServer, type SpawnedServer } from '../helpers/server';

let cluster: PgCluster | undefined;
let server: SpawnedServer | undefined;
let databaseUrl = '';
let base = '';

test.describe.configure({ mode: 'serial', timeout: 120_000 });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  cluster = await startPostgres();
  databaseUrl = await createDatabase(cluster.url, `e2e_${crypto.randomBytes(4).toString('hex')}`);
  // The built server (the shared webServer has built it before any test runs).
  server = await spawnServer({ DATABASE_URL: databaseUrl, SUGU_LOG_REQUESTS: '0', SMTP_URL: '' });
  base = server.base;
});

test.afterAll(async () => {
  await server?.stop();
  await cluster?.stop();
});

/** The newest reset link mailed to `email` (the mail goes out after the answer: polled until it is there). */
const resetLinkFromOutbox = (email: string) => linkFromOutbox(email, 'password_reset', /https?:\/\/\S+\/auth\/reset-password\?token=[\w-]+/);

/** The newest link of a `kind` mail to `email`, polled until it is there. */
async function linkFromOutbox(email: string, kind: string, pattern: RegExp): Promise<string> {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    let link: string | undefined;
    await expect
      .poll(
        async () => {
          const rows = await sql<{ body_text: string }[]>`
          select body_text from mail_outbox where to_address = ${email} and kind = ${kind} order by id desc limit 1`;
          link = pattern.exec(rows[0]?.body_text ?? '')?.[0];
          return Boolean(link);
        },
        { message: `a ${kind} mail for ${email}` },
      )
      .toBe(true);
    return link!;
  } finally {
    await sql.end({ timeout: 5 });
  }
}

const nav = (page: Page) => page.getByRole('navigation', { name: 'メインナビゲーション' });
const storedUserId = (page: Page) => page.evaluate(() => JSON.parse(localStorage.getItem('tokenBr') ?? '{}').userId ?? null);

test('sign up, sign out, reset the password from the mail, sign in, change it and leave', async ({ page }) => {
  const email = `journey-${crypto.randomBytes(4).toString('hex')}@example.jp`;
  const first = 'first-lantern-81';
  const second = 'second-harbour-92';
  const third = 'third-willow-73';

  // Sign up; a bad submission keeps what was typed.
  await page.goto(`${base}/auth/signup`);
  await expect(page.getByRole('heading', { name: 'アカウント作成' })).toBeVisible();
  await page.getByLabel('お名前').fill('旅程 テスト');
  await page.getByLabel('メールアドレス').fill(email);
  await page.getByLabel('パスワード', { exact: false }).fill(first);
  await page.getByRole('button', { name: '登録する' }).click();
  await expect(page.getByText('利用規約とプライバシーポリシーへの同意が必要です')).toBeVisible();
  await expect(page.getByLabel('お名前')).toHaveValue('旅程 テスト');
  await expect(page.getByLabel('メールアドレス')).toHaveValue(email);
  await page.getByLabel('パスワード', { exact: false }).fill(first);
  await page.getByLabel('利用規約とプライバシーポリシーに同意します').check();
  await page.getByRole('button', { name: '登録する' }).click();
  // Nobody is signed in yet: the page says a mail was sent (alike for a taken address).
  await expect(page).toHaveURL(`${base}/auth/verify?sent=1`);
  await expect(page.getByTestId('verify-sent')).toContainText('メール内のリンクを開いて登録を完了してください');

  // Signed in with the password before verifying: the account page says why no mail comes.
  await page.goto(`${base}/auth/signin?next=%2Faccount-info`);
  await page.getByLabel('メールアドレス').fill(email);
  await page.getByLabel('パスワード', { exact: true }).fill(first);
  await page.getByLabel('パスワード', { exact: true }).press('Enter');
  await expect(page).toHaveURL(`${base}/account-info`);
  const notice = page.getByTestId('email-unverified');
  await expect(notice).toContainText('確認が済むまで、予約確認・変更・リマインダー・空席通知のメールはお送りしません');
  await notice.getByRole('button', { name: '確認メールを再送する' }).click();
  await expect(page).toHaveURL(`${base}/account-info`);
  await expect(page.getByText(`${email} に確認メールを再送しました`)).toBeVisible();

  // The mailed link: a button verifies and signs in.
  const verify = await linkFromOutbox(email, 'email_verification', /https?:\/\/\S+\/auth\/verify\?token=[\w-]+/);
  expect(new URL(verify).origin).toBe(base);
  await page.goto(verify);
  await page.getByRole('button', { name: 'メールアドレスを確認する' }).click();
  await expect(page).toHaveURL(`${base}/account-info`);
  await expect(page.getByText('メールアドレスを確認しました')).toBeVisible();
  await expect(page.getByTestId('email-unverified')).toHaveCount(0);
  await expect(nav(page).getByRole('link').last()).toHaveText('アカウント');
  await expect.poll(() => storedUserId(page)).not.toBeNull();

  // Sign out from the account page: the local state goes too.
  await nav(page).getByRole('link', { name: 'アカウント' }).click();
  await expect(page).toHaveURL(`${base}/account-info`);
  await expect(page.getByLabel('メールアドレス')).toHaveValue(email);
  await page.getByRole('button', { name: 'ログアウト' }).click();
  await expect(page).toHaveURL(`${base}/home`);
  await expect(nav(page).getByRole('link').last()).toHaveText('ログイン');
  expect(await storedUserId(page)).toBeNull();

  // Forgot password.
  await nav(page).getByRole('link', { name: 'ログイン' }).click();
  await page.getByRole('link', { name: 'パスワードをお忘れの方' }).click();
  await expect(page).toHaveURL(`${base}/auth/forgot-password`);
  await page.getByLabel('メールアドレス').fill(email);
  await page.getByRole('button', { name: '再設定リンクを送信' }).click();
  await expect(page.getByTestId('forgot-sent')).toBeVisible();

  // Follow the mailed link: verifying → form; the token leaves the address bar.
  const link = await resetLinkFromOutbox(email);
  expect(new URL(link).origin).toBe(base);
  await page.goto(link);
  await expect(page.getByLabel('新しいパスワード')).toBeVisible();
  expect(page.url()).toBe(`${base}/auth/reset-password`);
  await page.getByLabel('新しいパスワード').fill(second);
  await page.getByRole('button', { name: 'パスワードを設定' }).click();
  await expect(page).toHaveURL(`${base}/auth/signin?reset=done`);
  await expect(page.getByText('パスワードを再設定しました。')).toBeVisible();

  // The spent link is refused.
  await page.goto(link);
  await expect(page.getByText('このリンクは無効です')).toBeVisible();

  // Sign in by keyboard alone: first the old password (refused, e-mail kept), then the new one.
  await page.goto(`${base}/auth/signin`);
  await page.getByLabel('メールアドレス').focus();
  await page.keyboard.type(email);
  await page.keyboard.press('Tab'); // the forgot-password link
  await page.keyboard.press('Tab');
  await page.keyboard.type(first);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('login-error')).toHaveText('メールアドレスまたはパスワードが正しくありません');
  await expect(page.getByLabel('メールアドレス')).toHaveValue(email);
  await page.getByLabel('パスワード', { exact: true }).fill('');
  await page.getByLabel('パスワード', { exact: true }).focus();
  await page.keyboard.type(second);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(`${base}/home`);
  await expect(nav(page).getByRole('link').last()).toHaveText('アカウント');
  await expect.poll(() => storedUserId(page)).not.toBeNull();

  // Change the password.
  await page.goto(`${base}/user-change-password`);
  await page.getByLabel('現在のパスワード').fill('not-my-password');
  await page.getByLabel('新しいパスワード').fill(third);
  await page.getByRole('button', { name: '変更する' }).click();
  await expect(page.getByText('パスワードが正しくありません')).toBeVisible();
  await page.getByLabel('現在のパスワード').fill(second);
  await page.getByLabel('新しいパスワード').fill(third);
  await page.getByRole('button', { name: '変更する' }).click();
  await expect(page).toHaveURL(`${base}/account-info`);
  await expect(page.getByText('パスワードを変更しました。')).toBeVisible();

  // Leave.
  await page.goto(`${base}/user-leave-association`);
  await page.getByLabel('パスワード', { exact: false }).fill(third);
  await page.getByLabel('上記を確認し、退会します').check();
  await page.getByRole('button', { name: '退会する' }).click();
  await expect(page).toHaveURL(`${base}/home`);
  await expect(page.getByText('退会手続きが完了しました。')).toBeVisible();
  await expect(nav(page).getByRole('link').last()).toHaveText('ログイン');
  await expect.poll(() => storedUserId(page)).toBeNull();

  // The account is gone: its password no longer signs in.
  const res = await page.request.post(`${base}/api/login`, { data: { email, password: third } });
  expect(res.status()).toBe(401);
});
