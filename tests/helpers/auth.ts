/**
 * Accounts for API tests, made through the real endpoints:
 *
 *   const me = await signUp(app());
 *   await app().fetch('/api/me', { cookie: me.jar.header() });
 */
import crypto from 'node:crypto';
import { CookieJar, type App } from './app';

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

/** Signs up a new user (POST /api/users) and signs in once more to get a Bearer token. */
export async function signUp(app: App, overrides: Partial<{ name: string; email: string; password: string }> = {}): Promise<SignedUp> {
  const body = { name: '佐藤 太郎', email: uniqueEmail(), password: `pw-${crypto.randomBytes(8).toString('hex')}`, agree: true, ...overrides };
  const res = await app.fetch('/api/users', { method: 'POST', json: body });
  if (res.status !== 201) throw new Error(`sign-up failed: ${res.status} ${await res.text()}`);
  const jar = new CookieJar().store(res);
  // Sign-up names no account (it answers alike for a taken address): the id comes from signing in.
  const login = await signIn(app, body.email, body.password);
  return { jar, userId: login.userId, email: body.email, password: body.password, token: login.token, name: body.name };
}

/** Signs in (POST /api/login); throws unless it answers 200. */
export async function signIn(app: App, email: string, password: string): Promise<{ jar: CookieJar; token: string; userId: number }> {
  const res = await app.fetch('/api/login', { method: 'POST', json: { email, password } });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  const jar = new CookieJar().store(res);
  const { token, user_id } = (await res.json()) as { token: string; user_id: number };
  return { jar, token, userId: user_id };
}
