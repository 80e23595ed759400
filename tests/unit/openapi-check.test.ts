/**
 * The check every API test's answers go through (tests/helpers/openapi-check.ts) really refuses
 * what the document does not say: an undocumented status, a body with a field too many or too few,
 * a method the path does not take answered without 405 and Allow.
 */
import { describe, expect, it } from 'vitest';
import { checkAgainstDocument } from '../helpers/openapi-check';

const base = 'http://127.0.0.1:1';
const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json; charset=utf-8', ...headers } });
const account = { id: 1, email: 'a@example.jp', name: '山田', name_kana: 'ヤマダ', phone: '', email_verified: true };
const check = (method: string, path: string, res: Response) => checkAgainstDocument(method, new URL(base + path), res);

describe('the API tests’ document check', () => {
  it('passes an answer as documented, and leaves its body readable', async () => {
    const res = json(200, account);
    await check('GET', '/api/me', res);
    expect(await res.json()).toEqual(account);
    await check('PUT', '/api/favourites/3', new Response(null, { status: 204 }));
    await check('GET', '/api/me', json(401, { error: { code: 'unauthorized', message: 'ログインしてください' } }));
  });

  it('refuses a body that does not fit: a field too many, a field missing, a wrong type', async () => {
    await expect(check('GET', '/api/me', json(200, { ...account, admin: true }))).rejects.toThrow(/does not fit/);
    const { phone: _phone, ...withoutPhone } = account;
    await expect(check('GET', '/api/me', json(200, withoutPhone))).rejects.toThrow(/phone/);
    await expect(check('GET', '/api/me', json(200, { ...account, id: '1' }))).rejects.toThrow(/does not fit/);
    await expect(check('GET', '/api/me', json(401, { error: { code: 'no_such_code', message: 'x' } }))).rejects.toThrow(/does not fit/);
  });

  it('refuses a status the operation does not list, a body where none is documented, and another content type', async () => {
    await expect(check('PUT', '/api/favourites/3', json(200, { store_id: 3, favourite: true }))).rejects.toThrow(/status 200 is not in the document/);
    await expect(check('POST', '/api/password/forgot', new Response('{}', { status: 202, headers: { 'content-type': 'application/json' } }))).rejects.toThrow(
      /no body/,
    );
    await expect(check('GET', '/api/me', new Response('<p>hi</p>', { status: 200, headers: { 'content-type': 'text/html' } }))).rejects.toThrow(/content type/);
  });

  it('wants 405 with Allow for a method a documented path does not take', async () => {
    await check('PATCH', '/api/login', json(405, { error: { code: 'method_not_allowed', message: 'x' } }, { allow: 'POST, DELETE' }));
    await expect(check('PATCH', '/api/login', json(404, { error: { code: 'not_found', message: 'x' } }))).rejects.toThrow(/405/);
  });

  it('matches a fixed path before a template that also fits it', async () => {
    await check('GET', '/api/watches/stream', new Response('', { status: 200, headers: { 'content-type': 'text/event-stream' } }));
    await expect(check('GET', '/api/watches/stream', json(200, {}))).rejects.toThrow(/content type/);
  });
});
