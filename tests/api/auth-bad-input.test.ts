import { beforeAll, expect, it } from 'vitest';
import { forEachApp } from '../helpers/app';
import { signUp, type SignedUp } from '../helpers/auth';

type Envelope = { error: { code: string; message: string; fields?: Record<string, string> } };

/** Every accounts endpoint with a JSON body, and one valid-shaped body for it. */
const ENDPOINTS: { method: string; path: string; signedIn?: boolean; body: Record<string, unknown> }[] = [
  { method: 'POST', path: '/api/users', body: { name: 'A', email: 'a@example.jp', password: 'long-enough-1', agree: true } },
  { method: 'POST', path: '/api/login', body: { email: 'a@example.jp', password: 'long-enough-1' } },
  { method: 'POST', path: '/api/password/forgot', body: { email: 'a@example.jp' } },
  { method: 'POST', path: '/api/password/verify', body: { token: 'abc' } },
  { method: 'POST', path: '/api/password/reset', body: { token: 'abc', password: 'long-enough-1' } },
  { method: 'PATCH', path: '/api/me', signedIn: true, body: { name: 'A', name_kana: 'ア', phone: '0312345678', email: 'a@example.jp' } },
  { method: 'PUT', path: '/api/me/password', signedIn: true, body: { current_password: 'x', new_password: 'long-enough-1' } },
  { method: 'DELETE', path: '/api/me', signedIn: true, body: { password: 'x', confirm: true } },
];

forEachApp('accounts bad input', (app) => {
  let user: SignedUp;
  const send = (e: (typeof ENDPOINTS)[number], init: { body?: string; json?: unknown }) =>
    app().fetch(e.path, {
      method: e.method,
      headers: { 'accept-language': 'en', 'content-type': 'application/json' },
      cookie: e.signedIn ? user.jar.header() : undefined,
      ...init,
    });

  beforeAll(async () => {
    user = await signUp(app());
  });

  it.each(ENDPOINTS)('$method $path: malformed JSON, non-objects and an empty body are 400 invalid_json', async (e) => {
    for (const body of ['{"email": ', 'null', '[1,2]', '"text"', '']) {
      const res = await send(e, { body });
      expect([body, res.status]).toEqual([body, 400]);
      expect(((await res.json()) as Envelope).error.code).toBe('invalid_json');
    }
  });

  it.each(ENDPOINTS)('$method $path: missing fields are named', async (e) => {
    const res = await send(e, { json: {} });
    if (e.method === 'PATCH') {
      // Every profile field is optional: an empty change changes nothing.
      expect(res.status).toBe(200);
      expect(((await res.json()) as { email: string }).email).toBe(user.email);
      return;
    }
    expect(res.status).toBe(400);
    const { error } = (await res.json()) as Envelope;
    expect(error.code).toBe('validation_failed');
    for (const field of Object.keys(e.body)) {
      expect(error.fields?.[field], `${field} in ${JSON.stringify(error.fields)}`).toMatch(/required|agree|Confirmation/);
    }
  });

  it.each(ENDPOINTS)('$method $path: wrong-typed fields are named', async (e) => {
    const wrong = Object.fromEntries(Object.keys(e.body).map((k) => [k, typeof e.body[k] === 'boolean' ? 'yes' : 12345]));
    const res = await send(e, { json: wrong });
    expect(res.status).toBe(400);
    const { error } = (await res.json()) as Envelope;
    expect(error.code).toBe('validation_failed');
    expect(Object.keys(error.fields ?? {}).sort()).toEqual(Object.keys(e.body).sort());
  });

  it.each(ENDPOINTS)('$method $path: overlong strings are named', async (e) => {
    const long = Object.fromEntries(Object.entries(e.body).map(([k, v]) => [k, typeof v === 'string' ? 'あ'.repeat(300) + v : v]));
    const res = await send(e, { json: long });
    expect(res.status).toBe(400);
    const { error } = (await res.json()) as Envelope;
    const strings = Object.keys(e.body).filter((k) => typeof e.body[k] === 'string');
    for (const field of strings) expect(error.fields?.[field], `${e.path} ${field}: ${JSON.stringify(error.fields)}`).toBeTruthy();
  });

  it.each(ENDPOINTS)('$method $path: a body over 64 KB is 413', async (e) => {
    const res = await send(e, { json: { ...e.body, padding: 'x'.repeat(70 * 1024) } });
    expect(res.status).toBe(413);
    expect(((await res.json()) as Envelope).error.code).toBe('body_too_large');
  });

  it('never answered 500, and the user is still there', async () => {
    expect(app().output()).not.toMatch(/"status":500/);
    expect((await app().fetch('/api/me', { cookie: user.jar.header() })).status).toBe(200);
  });
});
