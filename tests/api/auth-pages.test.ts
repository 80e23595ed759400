import { expect, it } from 'vitest';
import { CookieJar, forEachApp } from '../helpers/app';
import { signUp, uniqueEmail } from '../helpers/auth';

const form = (fields: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'ja' },
  body: new URLSearchParams(fields).toString(),
});

// The screens also work as plain HTML forms (no JavaScript), keeping what was typed.
forEachApp(
  'account screens',
  (app) => {
    it('renders the auth screens in the spec texts, in Japanese and English', async () => {
      for (const [path, ja, en] of [
        ['/auth/signin', 'パスワードをお忘れの方', 'Or sign in with'],
        ['/auth/signup', '利用規約とプライバシーポリシーに同意します', 'I agree to the terms of service and privacy policy'],
        ['/auth/forgot-password', 'ログインに戻る', 'Back to sign in'],
        ['/auth/reset-password', 'リンクを確認しています', 'Verifying link'],
      ] as const) {
        const jaRes = await app().fetch(path, { headers: { 'accept-language': 'ja' } });
        expect([path, jaRes.status]).toEqual([path, 200]);
        expect(await jaRes.text()).toContain(ja);
        expect(await (await app().fetch(path, { headers: { 'accept-language': 'en' } })).text()).toContain(en);
      }
      const signup = await (await app().fetch('/auth/signup')).text();
      // The terms and the privacy policy, each its own page (個人情報の取扱い).
      expect(signup).toContain('href="/term"');
      expect(signup).toContain('href="/privacy"');
    });

    it('signs in without JavaScript, back to a safe next page; a failure keeps the e-mail', async () => {
      const u = await signUp(app());
      const bad = await app().fetch('/auth/signin?next=%2Ffavourite', form({ email: u.email, password: 'wrong-wrong' }));
      expect(bad.status).toBe(401);
      const html = await bad.text();
      expect(html).toContain('メールアドレスまたはパスワードが正しくありません');
      expect(html).toContain(u.email);
      const ok = await app().fetch('/auth/signin?next=%2Ffavourite', form({ email: u.email, password: u.password }));
      expect(ok.status).toBe(303);
      expect(ok.headers.get('location')).toBe('/favourite');
      expect(new CookieJar().store(ok).get('example')).toBeTruthy();
      const evil = await app().fetch('/auth/signin?next=%2F%2Fevil.example', form({ email: u.email, password: u.password }));
      expect(evil.headers.get('location')).toBe('/home');
    });

    it('re-renders sign-up with field errors and the values typed (never the password)', async () => {
      const email = uniqueEmail();
      const res = await app().fetch('/auth/signup', form({ name: '花子', email, password: 'secret-typed-1' }));
      expect(res.status).toBe(400);
      const html = await res.text();
      expect(html).toContain('value="花子"');
      expect(html).toContain(`value="${email}"`);
      expect(html).not.toContain('secret-typed-1');
      const ok = await app().fetch('/auth/signup', form({ name: '花子', email, password: 'secret-typed-1', agree: 'on' }));
      expect(ok.status).toBe(303);
      expect(ok.headers.get('location')).toBe('/auth/verify?sent=1');
      // No one is signed in by sign-up (the mailed link does that), so a taken address cannot be told apart.
      expect(new CookieJar().store(ok).get('example')).toBeUndefined();
      // A taken address is answered like a new one (the owner is mailed instead).
      const taken = await app().fetch('/auth/signup', form({ name: '花子', email: email.toUpperCase(), password: 'secret-typed-2', agree: 'on' }));
      expect([taken.status, taken.headers.get('location')]).toEqual([303, '/auth/verify?sent=1']);
      expect(new CookieJar().store(taken).get('example')).toBeUndefined();
    });

    it('keeps signed-in users off the auth screens and guests off the account screens', async () => {
      const u = await signUp(app());
      for (const path of ['/auth/signin', '/auth/signup', '/auth/forgot-password', '/auth/reset-password']) {
        const res = await app().fetch(path, { cookie: u.jar.header() });
        expect([path, res.headers.get('location')]).toEqual([path, '/home']);
      }
      for (const path of ['/account-info', '/user-change-password', '/user-leave-association']) {
        expect((await app().fetch(path)).headers.get('location')).toBe(`/auth/signin?next=${encodeURIComponent(path)}`);
        expect((await app().fetch(path, { cookie: u.jar.header() })).status).toBe(200);
      }
    });

    it('edits the account by form: a bad phone keeps every value; a good one is saved', async () => {
      const u = await signUp(app());
      const bad = await app().fetch('/account-info', {
        ...form({ name: '新しい 名前', name_kana: 'アタラシイ ナマエ', phone: '12345', email: u.email }),
        cookie: u.jar.header(),
      });
      expect(bad.status).toBe(400);
      const html = await bad.text();
      expect(html).toContain('電話番号は国内の電話番号（例: 090-1234-5678）で入力してください');
      expect(html).toContain('value="新しい 名前"');
      expect(html).toContain('value="12345"');
      const ok = await app().fetch('/account-info', {
        ...form({ name: '新しい 名前', name_kana: 'アタラシイ ナマエ', phone: '03-1234-5678', email: u.email }),
        cookie: u.jar.header(),
      });
      expect(ok.status).toBe(303);
      const me = await (await app().fetch('/api/me', { cookie: u.jar.header() })).json();
      expect(me).toMatchObject({ name: '新しい 名前', name_kana: 'アタラシイ ナマエ', phone: '0312345678' });
    });

    it('leaves by form: needs the confirmation, then signs out', async () => {
      const u = await signUp(app());
      const noConfirm = await app().fetch('/user-leave-association', { ...form({ password: u.password }), cookie: u.jar.header() });
      expect(noConfirm.status).toBe(400);
      expect(await noConfirm.text()).toContain('退会する場合は確認にチェックを入れてください');
      const ok = await app().fetch('/user-leave-association', { ...form({ password: u.password, confirm: 'on' }), cookie: u.jar.header() });
      expect(ok.status).toBe(303);
      expect(ok.headers.get('location')).toBe('/home');
      expect((await app().fetch('/api/me', { cookie: u.jar.header() })).status).toBe(401);
    });
  },
  {},
  { shared: true },
);
