/**
 * Accounts for API tests, made through the real endpoints and verified as a diner does, by the
 * link in the mail the server sent (read from the app's mail catcher, tests/helpers/app.ts):
 *
 *   const me = await signUp(app());
 *   await app().fetch('/api/me', { cookie: me.jar.header() });
 */
import crypto from 'node:crypto';
import { CookieJar, mailedTo, type App } from './app';

export interface SignedUp {
  jar: CookieJar;
  userId: number;
  email: string;
  password: string;
  /** The token of a fresh sign-in (a second session), for `Authorization: Bearer`. */
  token: string;
  name: string;
}

let counter = 0;

/** A fresh unique address for this test run. */
export function uniqueEmail(prefix = 'user'): string {
  return `${prefix}-${process.pid}-${++counter}-${crypto.randomBytes(3).toString('hex')}@example.jp`;
}

export interface SignUpOptions {
  /** False: leave the address unverified (the session then comes from signing in). */
  verify?: boolean;
  /** Where the mail is read when the test runs its own SMTP server: the texts of the mails to `to` so far, oldest first. */
  inbox?: (to: string) => string[];
}

const VERIFY_LINK = /\/auth\/verify\?token=([\w-]+)/;

/** The verification links mailed to `email` so far, oldest first. */
function verificationTokens(app: App, email: string, inbox?: SignUpOptions['inbox']): string[] {
  const texts = inbox ? inbox(email) : mailedTo(app, email).map((m) => m.text);
  return texts.flatMap((text) => VERIFY_LINK.exec(text)?.[1] ?? []);
}

/**
 * The token of the verification link mailed to `email` after the first `after` ones, waited for
 * (the mail goes out after the answer); by default the newest one there is.
 */
export async function verificationToken(app: App, email: string, inbox?: SignUpOptions['inbox'], after = 0): Promise<string> {
  for (const deadline = Date.now() + 60_000; ; ) {
    const tokens = verificationTokens(app, email, inbox);
    if (tokens.length > after) return tokens.at(-1)!;
    if (Date.now() > deadline) throw new Error(`no verification mail reached ${email}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Follows a verification link (POST /api/email-verification); its answer signs in: the jar holds that session. */
export async function verifyEmail(app: App, token: string): Promise<CookieJar> {
  const res = await app.fetch('/api/email-verification', { method: 'POST', json: { token } });
  if (res.status !== 204) throw new Error(`verification failed: ${res.status} ${await res.text()}`);
  return new CookieJar().store(res);
}

/**
 * Signs up a new user (POST /api/users), follows the link of the mail it gets (which verifies the
 * address and signs in), and signs in once more to get a Bearer token.
 */
export async function signUp(
  app: App,
  overrides: Partial<{ name: string; email: string; password: string }> = {},
  options: SignUpOptions = {},
): Promise<SignedUp> {
  const body = { name: '佐藤 太郎', email: uniqueEmail(), password: `pw-${crypto.randomBytes(8).toString('hex')}`, agree: true, ...overrides };
  // The address may have had an account before (left since): its old links must not be taken for the new one.
  const before = verificationTokens(app, body.email, options.inbox).length;
  const res = await app.fetch('/api/users', { method: 'POST', json: body });
  if (res.status !== 201) throw new Error(`sign-up failed: ${res.status} ${await res.text()}`);
  // Sign-up names no account and signs no one in (it answers alike for a taken address).
  const jar = options.verify === false ? undefined : await verifyEmail(app, await verificationToken(app, body.email, options.inbox, before));
  const login = await signIn(app, body.email, body.password);
  return { jar: jar ?? login.jar, userId: login.userId, email: body.email, password: body.password, token: login.token, name: body.name };
}

/** Signs in (POST /api/login); throws unless it answers 200. */
export async function signIn(app: App, email: string, password: string): Promise<{ jar: CookieJar; token: string; userId: number }> {
  const res = await app.fetch('/api/login', { method: 'POST', json: { email, password } });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  const jar = new CookieJar().store(res);
  const { token, user_id } = (await res.json()) as { token: string; user_id: number };
  return { jar, token, userId: user_id };
}
