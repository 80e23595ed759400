import http from 'node:http';
import { expect, it } from 'vitest';
import { CookieJar, forEachApp, openAppDb, until, type App } from '../helpers/app';
import { signIn, signUp, uniqueEmail, verificationToken, verifyEmail } from '../helpers/auth';

/** An address as typed with the IME on: every ASCII character in its full-width form (ＺＥＮＫＡＫＵ＠…). */
const fullWidth = (ascii: string) => ascii.replace(/[!-~]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0));

const EN = { 'accept-language': 'en' };
type Envelope = { error: { code: string; message: string; fields?: Record<string, string> } };

async function me(app: App, auth: { cookie?: string; headers?: Record<string, string> }) {
  return app.fetch('/api/me', auth);
}

/** The link of the `nth` reset mail to `email`, read from the outbox (PostgreSQL apps); the mail goes out after the answer, so wait for it. */
async function resetLinkFor(app: App, email: string, nth = 1): Promise<string> {
  const h = await openAppDb(app);
  try {
    const rows = await until(async () => {
      const found = await h.sql<{ body_text: string; kind: string }[]>`
        select body_text, kind from mail_outbox where lower(to_address) = lower(${email}) and kind = 'password_reset' order by id`;
      return found.length >= nth ? found : undefined;
    }, `reset mail ${nth} to ${email}`);
    return /https?:\/\/\S+\/auth\/reset-password\?token=[\w-]+/.exec(rows[nth - 1]!.body_text)![0];
  } finally {
    await h.close();
  }
}

forEachApp('account', (app) => {
  it('answers 401 to guests on every /api/me call', async () => {
    for (const [path, method] of [
      ['/api/me', 'GET'],
      ['/api/me', 'PATCH'],
      ['/api/me', 'DELETE'],
      ['/api/me/password', 'PUT'],
    ] as const) {
      const res = await app().fetch(path, { method, json: method === 'GET' ? undefined : {} });
      expect([path, method, res.status]).toEqual([path, method, 401]);
      expect(((await res.json()) as Envelope).error.code).toBe('unauthorized');
    }
  });

  it('shows and edits the own account, normalising Japanese phone, kana and a full-width e-mail address', async () => {
    const u = await signUp(app(), { name: '鈴木 一郎' });
    const got = await me(app(), { cookie: u.jar.header() });
    expect(got.status).toBe(200);
    expect(await got.json()).toEqual({ id: u.userId, email: u.email, name: '鈴木 一郎', name_kana: '', phone: '', email_verified: true });
    const newEmail = uniqueEmail('renamed');
    const res = await app().fetch('/api/me', {
      method: 'PATCH',
      cookie: u.jar.header(),
      json: { name_kana: 'すずき　イチロウ', phone: '０９０－１２３４－５６７８', email: fullWidth(newEmail.toUpperCase()) },
    });
    expect(res.status).toBe(200);
    // A new address is unverified again, and is sent its own link (which verifies it).
    expect(await res.json()).toEqual({
      id: u.userId,
      email: newEmail,
      name: '鈴木 一郎',
      name_kana: 'スズキ イチロウ',
      phone: '09012345678',
      email_verified: false,
    });
    await verifyEmail(app(), await verificationToken(app(), newEmail));
    expect(await (await me(app(), { cookie: u.jar.header() })).json()).toMatchObject({ email: newEmail, email_verified: true });
    // Bearer works as well as the cookie, and the new address signs in.
    expect(((await (await me(app(), { headers: { authorization: `Bearer ${u.token}` } })).json()) as { email: string }).email).toBe(newEmail);
    await signIn(app(), newEmail, u.password);
  });

  it('refuses bad kana, foreign phone numbers and a taken address, naming the fields', async () => {
    const u = await signUp(app());
    const other = await signUp(app());
    const bad = await app().fetch('/api/me', {
      method: 'PATCH',
      cookie: u.jar.header(),
      headers: EN,
      json: { name_kana: 'Yamada', phone: '+1 415 555 0100', name: '' },
    });
    expect(bad.status).toBe(400);
    const fields = ((await bad.json()) as Envelope).error.fields!;
    expect(fields.name_kana).toMatch(/katakana or hiragana/);
    expect(fields.phone).toMatch(/as a Japanese number/);
    expect(fields.name).toBe('Full name is required');
    const taken = await app().fetch('/api/me', { method: 'PATCH', cookie: u.jar.header(), headers: EN, json: { email: other.email } });
    expect(taken.status).toBe(409);
    expect(((await taken.json()) as Envelope).error.fields!.email).toBe('This e-mail address is already registered');
    expect(((await (await me(app(), { cookie: u.jar.header() })).json()) as { email: string }).email).toBe(u.email);
  });

  it('changes the password with the current one, ending every other session', async () => {
    const u = await signUp(app());
    const phone = await signIn(app(), u.email, u.password);
    const wrong = await app().fetch('/api/me/password', {
      method: 'PUT',
      cookie: u.jar.header(),
      headers: EN,
      json: { current_password: 'not-it-at-all', new_password: 'fresh-tangerine-7' },
    });
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as Envelope).error.fields).toEqual({ current_password: 'The password is not correct' });
    const ok = await app().fetch('/api/me/password', {
      method: 'PUT',
      cookie: u.jar.header(),
      json: { current_password: u.password, new_password: 'fresh-tangerine-7' },
    });
    expect(ok.status).toBe(204);
    expect((await me(app(), { cookie: u.jar.header() })).status).toBe(200);
    expect((await me(app(), { cookie: phone.jar.header() })).status).toBe(401);
    expect((await me(app(), { headers: { authorization: `Bearer ${u.token}` } })).status).toBe(401);
    expect((await app().fetch('/api/login', { method: 'POST', json: { email: u.email, password: u.password } })).status).toBe(401);
    await signIn(app(), u.email, 'fresh-tangerine-7');
  });

  it('answers 202 to a reset request whether or not the address has an account, and refuses bad links', async () => {
    const u = await signUp(app());
    for (const email of [u.email, uniqueEmail('nobody')]) {
      const res = await app().fetch('/api/password/forgot', { method: 'POST', json: { email } });
      expect(res.status).toBe(202);
      expect(await res.text()).toBe('');
    }
    for (const token of ['made-up-token', 'x'.repeat(43)]) {
      const verify = await app().fetch('/api/password/verify', { method: 'POST', headers: EN, json: { token } });
      expect(verify.status).toBe(400);
      const reset = await app().fetch('/api/password/reset', { method: 'POST', headers: EN, json: { token, password: 'brand-new-secret' } });
      expect(reset.status).toBe(400);
      expect(await reset.json()).toEqual({ error: { code: 'invalid_link', message: 'The action link is invalid' } });
    }
  });

  it('answers a reset request before it looks the address up, so a known address takes no longer than an unknown one', async () => {
    const u = await signUp(app());
    const from = app().output().length;
    const res = await app().fetch('/api/password/forgot', { method: 'POST', headers: { 'x-request-id': `forgot-${app().engine}` }, json: { email: u.email } });
    expect(res.status).toBe(202);
    // The answer is logged when it is made; the mail is queued only after it.
    await app().waitForOutput(/"msg":"mail_queued"[^\n]*"kind":"password_reset"/, 'the reset mail', from);
    const after = app().output().slice(from);
    const answered = after.search(new RegExp(`"msg":"request","requestId":"forgot-${app().engine}"`));
    expect(answered).toBeGreaterThanOrEqual(0);
    expect(answered).toBeLessThan(after.search(/"msg":"mail_queued"[^\n]*"kind":"password_reset"/));
    if (app().engine !== 'postgres') return;
    // Stronger: while the table the link goes to is locked, the answer still comes; the mail follows the lock.
    const h = await openAppDb(app());
    try {
      let release!: () => void;
      const released = new Promise<void>((r) => (release = r));
      let locked!: () => void;
      const lockHeld = new Promise<void>((r) => (locked = r));
      const holder = h.sql.begin(async (tx) => {
        await tx`lock table password_resets in access exclusive mode`;
        locked();
        await released;
      });
      await lockHeld;
      const known = await app().fetch('/api/password/forgot', { method: 'POST', json: { email: u.email } });
      expect(known.status).toBe(202);
      release();
      await holder;
      expect(new URL(await resetLinkFor(app(), u.email, 2)).origin).toBe(app().url);
    } finally {
      await h.close();
    }
  });

  it('builds the reset link from the configured address, never from a forged Host header', async () => {
    if (app().engine !== 'postgres') return; // the outbox of an embedded database is locked by its server
    const u = await signUp(app());
    const { port } = new URL(app().url);
    const body = JSON.stringify({ email: u.email });
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          path: '/api/password/forgot',
          method: 'POST',
          headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
    expect(status).toBe(202);
    expect(new URL(await resetLinkFor(app(), u.email)).origin).toBe(app().url);
  });

  it('resets a password from the outbox link once, within the hour, ending every session', async () => {
    if (app().engine !== 'postgres') return; // the outbox of an embedded database is locked by its server
    const u = await signUp(app());
    expect((await app().fetch('/api/password/forgot', { method: 'POST', json: { email: u.email.toUpperCase() } })).status).toBe(202);
    const link = new URL(await resetLinkFor(app(), u.email));
    expect(link.origin).toBe(app().url);
    const token = link.searchParams.get('token')!;
    expect((await app().fetch('/api/password/verify', { method: 'POST', json: { token } })).status).toBe(204);
    const weak = await app().fetch('/api/password/reset', { method: 'POST', headers: EN, json: { token, password: 'password1' } });
    expect(weak.status).toBe(400);
    expect(((await weak.json()) as Envelope).error.fields!.password).toMatch(/too common/);
    // A refused attempt does not spend the link.
    const ok = await app().fetch('/api/password/reset', { method: 'POST', json: { token, password: 'after-the-reset-9' } });
    expect(ok.status).toBe(204);
    expect((await me(app(), { cookie: u.jar.header() })).status).toBe(401);
    expect((await me(app(), { headers: { authorization: `Bearer ${u.token}` } })).status).toBe(401);
    await signIn(app(), u.email, 'after-the-reset-9');
    // Used: refused.
    const again = await app().fetch('/api/password/reset', { method: 'POST', json: { token, password: 'and-once-more-10' } });
    expect(again.status).toBe(400);
    expect(((await again.json()) as Envelope).error.code).toBe('invalid_link');
    // Expired (over an hour old): refused.
    await app().fetch('/api/password/forgot', { method: 'POST', json: { email: u.email } });
    const late = new URL(await resetLinkFor(app(), u.email, 2)).searchParams.get('token')!;
    const h = await openAppDb(app());
    try {
      const [{ n }] = await h.sql<
        { n: number }[]
      >`select count(*)::int as n from password_resets where user_id = ${u.userId} and abs(extract(epoch from expires_at - created_at) - 3600) < 5`;
      expect(n).toBe(2);
      await h.sql`update password_resets set expires_at = now() - interval '1 second' where user_id = ${u.userId} and used_at is null`;
    } finally {
      await h.close();
    }
    expect((await app().fetch('/api/password/verify', { method: 'POST', json: { token: late } })).status).toBe(400);
    expect((await app().fetch('/api/password/reset', { method: 'POST', json: { token: late, password: 'too-late-for-this' } })).status).toBe(400);
    await signIn(app(), u.email, 'after-the-reset-9');
  });

  it('leaves only with the password and the confirmation, then the address may sign up again', async () => {
    const u = await signUp(app());
    const noConfirm = await app().fetch('/api/me', { method: 'DELETE', cookie: u.jar.header(), headers: EN, json: { password: u.password } });
    expect(noConfirm.status).toBe(400);
    expect(((await noConfirm.json()) as Envelope).error.fields!.confirm).toBe('Confirmation is required');
    const wrong = await app().fetch('/api/me', { method: 'DELETE', cookie: u.jar.header(), headers: EN, json: { password: 'wrong-password', confirm: true } });
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as Envelope).error.fields).toEqual({ password: 'The password is not correct' });
    expect((await me(app(), { cookie: u.jar.header() })).status).toBe(200);

    const res = await app().fetch('/api/me', { method: 'DELETE', cookie: u.jar.header(), json: { password: u.password, confirm: true } });
    expect(res.status).toBe(204);
    expect(new CookieJar().store(res).get('example')).toBeUndefined();
    expect((await me(app(), { cookie: u.jar.header() })).status).toBe(401);
    expect((await me(app(), { headers: { authorization: `Bearer ${u.token}` } })).status).toBe(401);
    expect((await app().fetch('/api/login', { method: 'POST', json: { email: u.email, password: u.password } })).status).toBe(401);
    const again = await signUp(app(), { email: u.email });
    expect(again.userId).not.toBe(u.userId);
  });

  it('on leaving, deletes personal data, cancels future bookings (their tables free up) and anonymises past ones', async () => {
    if (app().engine !== 'postgres') return; // bookings are put in place through the database
    const u = await signUp(app(), { name: '退会 する人' });
    const h = await openAppDb(app());
    try {
      const [table] = await h.sql<{ id: number; store_id: number }[]>`select id, store_id from store_tables order by id limit 1`;
      const [other] = await h.sql<
        { id: number; store_id: number }[]
      >`select id, store_id from store_tables where store_id <> ${table!.store_id} order by id limit 1`;
      const future = `now() + interval '400 days'`;
      const [fut] = await h.sql<{ id: number }[]>`
        insert into bookings (code, store_id, table_id, user_id, party_size, starts_at, ends_at, note)
        values ('SG-LEAVE1', ${table!.store_id}, ${table!.id}, ${u.userId}, 2, ${h.sql.unsafe(future)}, ${h.sql.unsafe(future)} + interval '2 hours', 'アレルギー: えび')
        returning id`;
      const [past] = await h.sql<{ id: number }[]>`
        insert into bookings (code, store_id, table_id, user_id, party_size, starts_at, ends_at, note)
        values ('SG-LEAVE2', ${other!.store_id}, ${other!.id}, ${u.userId}, 3, now() - interval '400 days', now() - interval '400 days' + interval '2 hours', '誕生日')
        returning id`;
      await h.sql`insert into favourites (user_id, store_id) values (${u.userId}, ${table!.store_id})`;
      await h.sql`insert into viewing_history (user_id, store_id) values (${u.userId}, ${other!.store_id})`;
      // While booked, the table is taken for that time: the database refuses a second booking.
      const clash = () => h.sql`insert into bookings (code, store_id, table_id, party_size, starts_at, ends_at, guest_name)
        values ('SG-CLASH0', ${table!.store_id}, ${table!.id}, 2, ${h.sql.unsafe(future)} + interval '30 minutes', ${h.sql.unsafe(future)} + interval '150 minutes', 'x')`;
      await expect(clash()).rejects.toMatchObject({ code: '23P01' });
      const [{ before }] = await h.sql<{ before: number }[]>`select coalesce(max(id), 0)::int as before from availability_events`;

      const res = await app().fetch('/api/me', { method: 'DELETE', cookie: u.jar.header(), json: { password: u.password, confirm: true } });
      expect(res.status).toBe(204);

      const count = async (q: ReturnType<typeof h.sql>) => Number(((await q) as unknown as { n: number }[])[0]!.n);
      expect(await count(h.sql`select count(*) as n from users where id = ${u.userId} or lower(email) = lower(${u.email})`)).toBe(0);
      expect(await count(h.sql`select count(*) as n from sessions where user_id = ${u.userId}`)).toBe(0);
      expect(await count(h.sql`select count(*) as n from favourites where user_id = ${u.userId}`)).toBe(0);
      expect(await count(h.sql`select count(*) as n from viewing_history where user_id = ${u.userId}`)).toBe(0);
      expect(await count(h.sql`select count(*) as n from mail_outbox where lower(to_address) = lower(${u.email})`)).toBe(0);
      const rows = await h.sql<
        {
          id: number;
          status: string;
          user_id: number | null;
          note: string;
          guest_name: string | null;
          guest_email: string | null;
          guest_phone: string | null;
        }[]
      >`
        select id, status, user_id, note, guest_name, guest_email, guest_phone from bookings where id in (${fut!.id}, ${past!.id}) order by id`;
      expect(rows).toEqual([
        { id: fut!.id, status: 'cancelled', user_id: null, note: '', guest_name: null, guest_email: null, guest_phone: null },
        { id: past!.id, status: 'confirmed', user_id: null, note: '', guest_name: null, guest_email: null, guest_phone: null },
      ]);
      // The table is free again at that time, and the change was announced for live pages.
      await clash();
      const events = await h.sql<{ store_id: number }[]>`select store_id from availability_events where id > ${before}`;
      expect(events.map((e) => e.store_id)).toContain(table!.store_id);
    } finally {
      await h.close();
    }
  });
});
