/**
 * The store host (DESIGN §2): one server, two sites told apart by the Host header. Requests go to
 * 127.0.0.1 with the store host's Host, as a browser resolving `store.localhost` would send them
 * (Node's fetch keeps its own Host, so they are written raw).
 */
import { describe, expect, it } from 'vitest';
import { forEachApp, type App } from '../helpers/app';
import { rawRequest, type RawResponse } from '../helpers/raw';
import { DEMO_STAFF, DEMO_USER } from '../../src/server/db/seed-data';
import { STORE_SESSION_COOKIE } from '../../src/server/sessions';
import { businessDate } from '../../src/server/availability';
import { addTokyoDays } from '../../src/lib/datetime';
import { staffServer, STORE_HOST } from './store-fixtures';
import { tokyoStart } from './booking-fixtures';

type Json = Record<string, unknown>;

/** One request to the site behind `host`, as a browser on it sends it (its own Origin on writes). */
function onHost(app: App, host: string, origin: string) {
  return (
    path: string,
    options: { method?: string; form?: Record<string, string>; cookie?: string; headers?: Record<string, string> } = {},
  ): Promise<RawResponse> => {
    const headers: Record<string, string> = { host, 'accept-language': 'ja', ...(options.cookie ? { cookie: options.cookie } : {}) };
    let body: string | undefined;
    if (options.form) {
      body = new URLSearchParams(options.form).toString();
      headers['content-type'] = 'application/x-www-form-urlencoded';
      headers['content-length'] = String(Buffer.byteLength(body));
      headers.origin = origin;
    }
    return rawRequest(app, { method: options.method ?? (options.form ? 'POST' : 'GET'), path, headers: { ...headers, ...options.headers }, body });
  };
}

/** Cookie `name` as a response sets it, or undefined. */
function setCookie(res: RawResponse, name: string): { value: string; line: string } | undefined {
  const line = (res.headers['set-cookie'] ?? []).find((l) => l.startsWith(`${name}=`));
  return line ? { value: line.slice(name.length + 1).split(';')[0]!, line } : undefined;
}

/** The response takes cookie `name` away. */
const takesAway = (res: RawResponse, name: string) => /expires=Thu, 01 Jan 1970|max-age=0/i.test(setCookie(res, name)?.line ?? '');

forEachApp(
  'store host, as configured by default',
  (app) => {
    const port = () => new URL(app().url).port;
    const storeHostName = () => `store.localhost:${port()}`;
    const store = (path: string, options?: Parameters<ReturnType<typeof onHost>>[1]) =>
      onHost(app(), storeHostName(), `http://${storeHostName()}`)(path, options);
    const diner = (path: string, options?: Parameters<ReturnType<typeof onHost>>[1]) => onHost(app(), `127.0.0.1:${port()}`, app().url)(path, options);

    it('serves the store site to its Host, never indexed, and the diner site to any other', async () => {
      const signin = await store('/store-signin');
      expect(signin.status).toBe(200);
      expect(signin.headers['x-robots-tag']).toBe('noindex, nofollow');
      expect(signin.body).toContain('<meta name="robots" content="noindex, nofollow">');
      expect(signin.body).toContain('店舗スタッフ ログイン');
      expect(signin.headers['cache-control']).toBe('private, no-store');
      // The diner site sends its store paths to the store host (by default store.localhost on the same port).
      const sent = await diner('/store-signin?next=%2Flist-seat-manage');
      expect(sent.status).toBe(302);
      expect(sent.headers.location).toBe(`http://${storeHostName()}/store-signin?next=%2Flist-seat-manage`);
      expect((await diner('/home')).headers['x-robots-tag']).toBeUndefined();
    });

    it('keeps the store site’s own folder off the diner host, and diner pages off the store host', async () => {
      for (const path of ['/store-host/store-signin', '/store-host/list-booking-manage', '/store-host/not-found', '/store-host']) {
        const res = await diner(path);
        expect([path, res.status]).toEqual([path, 404]);
        expect(res.body).not.toContain('店舗スタッフ ログイン');
      }
      for (const path of ['/home', '/auth/signin', '/store-host/store-signin', '/nothing-here']) {
        const res = await store(path);
        expect([path, res.status]).toEqual([path, 404]);
        // The store site's own error page: its layout, noindex, the way back to its sign-in.
        expect(res.body).toContain('すぐ予約 店舗管理');
        expect(res.body).toContain('href="/store-signin"');
        expect(res.headers['x-robots-tag']).toBe('noindex, nofollow');
      }
      expect(await store('/')).toMatchObject({ status: 302, headers: { location: '/store-signin' } });
      // Its screens need a staff session; sign-in comes back to where the staff were going.
      expect(await store('/list-booking-manage?date=2026-11-24')).toMatchObject({
        status: 302,
        headers: { location: '/store-signin?next=%2Flist-booking-manage%3Fdate%3D2026-11-24' },
      });
    });

    it('refuses a diner’s account on the store sign-in, in the staff’s language, keeping the typed e-mail', async () => {
      const res = await store('/store-signin', { form: { email: DEMO_USER.email, password: DEMO_USER.password } });
      expect(res.status).toBe(403);
      expect(res.body).toContain('お客様用のアカウントでは店舗管理画面にログインできません');
      expect(res.body).toContain(`value="${DEMO_USER.email}"`);
      expect(setCookie(res, STORE_SESSION_COOKIE)).toBeUndefined();
      expect(setCookie(res, 'example')).toBeUndefined();
      // The JSON sign-in on the store host says the same.
      const login = await rawRequest(app(), {
        method: 'POST',
        path: '/api/login',
        headers: { host: storeHostName(), origin: `http://${storeHostName()}`, 'content-type': 'application/json', 'accept-language': 'ja' },
        body: JSON.stringify({ email: DEMO_USER.email, password: DEMO_USER.password }),
      });
      expect(login.status).toBe(403);
      expect((JSON.parse(login.body) as { error: { message: string } }).error.message).toContain('お客様用のアカウント');
      expect(setCookie(login, STORE_SESSION_COOKIE)).toBeUndefined();
      // Staff signing in through the JSON call on the store host get the store host's cookie, not the diners'.
      const staff = await rawRequest(app(), {
        method: 'POST',
        path: '/api/login',
        headers: { host: storeHostName(), origin: `http://${storeHostName()}`, 'content-type': 'application/json' },
        body: JSON.stringify({ email: DEMO_STAFF.email, password: DEMO_STAFF.password }),
      });
      expect(staff.status).toBe(200);
      expect(setCookie(staff, STORE_SESSION_COOKIE)?.value).toBe((JSON.parse(staff.body) as { token: string }).token);
      expect(setCookie(staff, 'example')).toBeUndefined();
    });

    it('signs the demo staff in with the store host’s own host-only cookie, shows the ledger, and signs out', async () => {
      const wrong = await store('/store-signin', { form: { email: DEMO_STAFF.email, password: 'not-the-password' } });
      expect(wrong.status).toBe(401);
      expect(wrong.body).toContain('メールアドレスまたはパスワードが正しくありません');
      expect(wrong.body).toContain(`value="${DEMO_STAFF.email}"`);

      const res = await store('/store-signin', { form: { email: DEMO_STAFF.email, password: DEMO_STAFF.password } });
      expect(res.status).toBe(303);
      expect(res.headers.location).toBe('/list-booking-manage');
      const cookie = setCookie(res, STORE_SESSION_COOKIE)!;
      expect(cookie.value.length).toBeGreaterThan(20);
      expect(cookie.line).toMatch(/HttpOnly/i);
      expect(cookie.line).toMatch(/SameSite=Lax/i);
      expect(cookie.line).not.toMatch(/Domain=/i);
      // Plain http in development: not Secure (the one cookie rule).
      expect(cookie.line).not.toMatch(/Secure/i);
      expect(setCookie(res, 'example')).toBeUndefined();
      const jar = `${STORE_SESSION_COOKIE}=${cookie.value}`;

      // The store API answers on the store host, same-origin, with that cookie.
      const day = (await store('/api/store/bookings', { cookie: jar })) as RawResponse;
      expect(day.status).toBe(200);
      const ledger = await store('/list-booking-manage', { cookie: jar });
      expect(ledger.status).toBe(200);
      expect(ledger.body).toContain('予約台帳');
      expect(ledger.body).toContain('data-stream="/api/store/stream?store_id=');
      for (const b of (JSON.parse(day.body) as { items: { id: number; contact: { name: string } }[] }).items) {
        expect(ledger.body).toContain(`data-booking="${b.id}"`);
        expect(ledger.body).toContain(b.contact.name);
      }
      expect(await store('/', { cookie: jar })).toMatchObject({ status: 302, headers: { location: '/list-booking-manage' } });
      expect(await store('/store-signin', { cookie: jar })).toMatchObject({ status: 302, headers: { location: '/list-booking-manage' } });
      // Every screen the spec names for store staff is a page of its own at its path (none is a placeholder).
      for (const path of ['/list-seat-manage', '/detail-store-manage', '/list-payment-manage', '/list-store-manage', '/campaign-banner']) {
        const screen = await store(path, { cookie: jar });
        expect([path, screen.status]).toEqual([path, 200]);
        expect(screen.body).not.toContain('準備中');
      }

      // The store cookie signs nobody in on the diner site.
      expect((await diner('/api/me', { cookie: jar })).status).toBe(401);
      expect(await diner('/account-info', { cookie: jar })).toMatchObject({ status: 302 });

      const out = await store('/store-signout', { form: {}, cookie: jar });
      expect(out).toMatchObject({ status: 303, headers: { location: '/store-signin' } });
      expect(takesAway(out, STORE_SESSION_COOKIE)).toBe(true);
      expect(await store('/list-booking-manage', { cookie: jar })).toMatchObject({ status: 302 });
    });

    it('gives a diner’s session nothing on the store host, whichever cookie carries it', async () => {
      const login = await app().fetch('/api/login', { method: 'POST', json: { email: DEMO_USER.email, password: DEMO_USER.password } });
      const { token } = (await login.json()) as { token: string };
      expect((await diner('/api/me', { cookie: `example=${token}` })).status).toBe(200);
      expect(await store('/list-booking-manage', { cookie: `example=${token}` })).toMatchObject({
        status: 302,
        headers: { location: expect.stringMatching(/^\/store-signin/) },
      });
      const borrowed = await store('/list-booking-manage', { cookie: `${STORE_SESSION_COOKIE}=${token}` });
      expect(borrowed.status).toBe(302);
      expect(takesAway(borrowed, STORE_SESSION_COOKIE)).toBe(true);
      expect((await store('/api/me', { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
    });

    it('refuses cross-origin form posts on the store host, the diner site’s own origin included', async () => {
      for (const origin of ['https://evil.example', app().url]) {
        const res = await store('/store-signin', { form: { email: DEMO_STAFF.email, password: DEMO_STAFF.password }, headers: { origin } });
        expect([origin, res.status]).toEqual([origin, 403]);
        expect(res.body).toContain('別のサイトからの送信は受け付けられません');
        expect(setCookie(res, STORE_SESSION_COOKIE)).toBeUndefined();
      }
    });
  },
  {},
  { shared: true },
);

describe.each(['pglite', 'postgres'] as const)('store host ledger and switcher [%s]', (engine) => {
  const s = staffServer(engine);
  const host = new URL(STORE_HOST).host;
  const store = (path: string, options?: Parameters<ReturnType<typeof onHost>>[1]) => onHost(s.app, host, STORE_HOST)(path, options);
  const tomorrow = () => addTokyoDays(businessDate(new Date()), 1);

  const signIn = async () => {
    const res = await store('/store-signin', { form: { email: s.fx.staffA.email, password: s.fx.staffA.password } });
    expect(res.status).toBe(303);
    const cookie = setCookie(res, STORE_SESSION_COOKIE)!;
    // STORE_HOST is https here: the cookie is Secure.
    expect(cookie.line).toMatch(/Secure/);
    return `${STORE_SESSION_COOKIE}=${cookie.value}`;
  };

  it('shows a diner’s booking on the ledger of its day, and marks it through a plain form', async () => {
    const jar = await signIn();
    const made = await s.app.fetch('/api/bookings', {
      method: 'POST',
      cookie: s.fx.users[0]!.cookie,
      json: { store_id: s.fx.storeId, start: tokyoStart(1, 20), party_size: 3, note: '窓際希望' },
    });
    expect(made.status).toBe(201);
    const booking = (await made.json()) as Json;
    const ledger = await store(`/list-booking-manage?date=${tomorrow()}`, { cookie: jar });
    expect(ledger.status).toBe(200);
    expect(ledger.body).toContain(`data-booking="${booking.id}"`);
    expect(ledger.body).toContain('予約 太郎1');
    expect(ledger.body).toContain('窓際希望');
    expect(ledger.body).toContain('3名');

    // Arrived: the same service as PATCH /api/store/bookings/{id}, then back to the same day.
    const marked = await store(`/list-booking-manage?date=${tomorrow()}`, { form: { booking: String(booking.id), mark: 'arrived' }, cookie: jar });
    expect(marked).toMatchObject({ status: 303, headers: { location: `/list-booking-manage?date=${tomorrow()}` } });
    const day = JSON.parse((await store(`/api/store/bookings?date=${tomorrow()}`, { cookie: jar })).body) as {
      items: { id: number; attendance: string | null }[];
    };
    expect(day.items.find((b) => b.id === booking.id)?.attendance).toBe('arrived');
    const after = await store(`/list-booking-manage?date=${tomorrow()}`, { cookie: `${jar}; flash=${setCookie(marked, 'flash')!.value}` });
    expect(after.body).toContain('来店を記録しました');
    expect(after.body).toContain('来店済み');

    // The cancel form (a reason to write) is drawn only for the booking the address names.
    const other = (await (
      await s.app.fetch('/api/bookings', {
        method: 'POST',
        cookie: s.fx.users[1]!.cookie,
        json: { store_id: s.fx.storeId, start: tokyoStart(1, 21), party_size: 2 },
      })
    ).json()) as Json;
    expect(ledger.body).toContain(`href="/list-booking-manage?date=${tomorrow()}&amp;cancel=${booking.id}#cancel-${booking.id}"`);
    expect(ledger.body).not.toContain('name="reason"');
    const asked = await store(`/list-booking-manage?date=${tomorrow()}&cancel=${other.id}`, { cookie: jar });
    expect(asked.body.match(/name="reason"/g)).toHaveLength(1);
    expect(asked.body).toContain(`id="reason-${other.id}"`);
    // A cancellation without its reason is refused with the field named, the form open again with what was typed, and changes nothing.
    const refused = await store(`/list-booking-manage?date=${tomorrow()}`, {
      form: { booking: String(other.id), mark: 'cancelled', reason: '   ' },
      cookie: jar,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.match(/name="reason"/g)).toHaveLength(1);
    expect(refused.body).toMatch(new RegExp(`<textarea id="reason-${other.id}"[^>]*aria-invalid="true"[^>]*>   </textarea>`));
    expect(refused.body).toMatch(new RegExp(`id="reason-${other.id}-error"[^>]*>[^<]*理由を入力してください`));
    const still = JSON.parse((await store(`/api/store/bookings?date=${tomorrow()}`, { cookie: jar })).body) as { items: { id: number; status: string }[] };
    expect(still.items.find((b) => b.id === other.id)?.status).toBe('confirmed');
  });

  it('seats a walk-in from the ledger’s form, takes its table off the diners’ availability, and frees it again', async () => {
    const jar = await signIn();
    const today = businessDate(new Date());
    // The free tables for two at each start from now on (tomorrow's too, in case the day is ending).
    const freeFor2 = async () => {
      const days = await Promise.all(
        [today, addTokyoDays(today, 1)].map(
          async (date) =>
            (await (await s.app.fetch(`/api/stores/${s.fx.storeId}/availability?date=${date}&party=2`)).json()) as {
              slots: { start: string; free_tables: number }[];
            },
        ),
      );
      return new Map(days.flatMap((d) => d.slots.map((x) => [Date.parse(x.start), x.free_tables] as const)));
    };
    const before = await freeFor2();
    const page = await store('/list-booking-manage', { cookie: jar });
    expect(page.body).toContain('今すぐ着席');
    expect(page.body).toMatch(/2名なら今は「T\d」が空いています/);

    // The party size as a tablet's IME types it (full-width): read as 2, and shown back as 2名.
    const seated = await store('/list-booking-manage', { form: { action: 'walk_in', party_size: '２', table_id: '', name: '窓口 一郎' }, cookie: jar });
    expect(seated).toMatchObject({ status: 303, headers: { location: '/list-booking-manage' } });
    const walkIns = JSON.parse((await store('/api/store/walk-ins', { cookie: jar })).body) as {
      items: { id: number; name: string; start: string; end: string; table: { label: string } }[];
    };
    const walkIn = walkIns.items.find((w) => w.name === '窓口 一郎')!;
    expect(walkIn).toBeDefined();
    const shown = await store('/list-booking-manage', { cookie: `${jar}; flash=${setCookie(seated, 'flash')!.value}` });
    expect(shown.body).toContain(`「${walkIn.table.label}」に2名をご案内しました`);
    expect(shown.body).toContain(`data-walk-in="${walkIn.id}"`);
    expect(shown.body).toContain('窓口 一郎');
    expect(shown.body).toContain('空きに戻す');
    // The next start inside its stay offers one table fewer to diners.
    const held = await freeFor2();
    const start = [...held.keys()].find((at) => at > Date.now() && at < Date.parse(walkIn.end))!;
    expect(start).toBeDefined();
    expect(held.get(start)).toBe(before.get(start)! - 1);

    const freed = await store('/list-booking-manage', { form: { action: 'free', walk_in: String(walkIn.id) }, cookie: jar });
    expect(freed.status).toBe(303);
    expect((await store('/list-booking-manage', { cookie: `${jar}; flash=${setCookie(freed, 'flash')!.value}` })).body).toContain('席を空きに戻しました');
    expect((await freeFor2()).get(start)).toBe(before.get(start));

    // A walk-in at a table that does not fit the party is refused with the table named, and seats nobody.
    const tables = JSON.parse((await store('/api/store/tables', { cookie: jar })).body) as { items: { id: number; max_party: number }[] };
    const small = tables.items.find((x) => x.max_party < 6)!;
    const refused = await store('/list-booking-manage', { form: { action: 'walk_in', party_size: '6', table_id: String(small.id) }, cookie: jar });
    expect(refused.status).toBe(303);
    expect((await store('/list-booking-manage', { cookie: `${jar}; flash=${setCookie(refused, 'flash')!.value}` })).body).toMatch(/class="[^"]*alert-error/);
    // (The freed walk-in stays on the day's list, ended this minute.)
    const after = JSON.parse((await store('/api/store/walk-ins', { cookie: jar })).body) as { items: unknown[] };
    expect(after.items).toHaveLength(walkIns.items.length);
  });

  it('writes down a phone booking from its form, keeps what was typed when refused, and undoes a mark', async () => {
    const jar = await signIn();
    const page = `/list-booking-manage?date=${tomorrow()}`;
    const typed = { action: 'phone', name: '電話 花子', name_kana: 'デンワ ハナコ', phone: '12', party_size: '2', time: '19:00', note: '誕生日' };
    const bad = await store(page, { form: typed, cookie: jar });
    expect(bad.status).toBe(400);
    expect(bad.body).toContain('value="電話 花子"');
    expect(bad.body).toContain('value="デンワ ハナコ"');
    expect(bad.body).toContain('value="12"');
    expect(bad.body).toContain('誕生日');
    expect(bad.body).toMatch(/id="f-phone-error"[^>]*>[^<]+</);
    const none = JSON.parse((await store(`/api/store/bookings?date=${tomorrow()}`, { cookie: jar })).body) as { items: { contact: { name: string } }[] };
    expect(none.items.some((b) => b.contact.name === '電話 花子')).toBe(false);

    const saved = await store(page, { form: { ...typed, phone: '090-1111-2222' }, cookie: jar });
    expect(saved).toMatchObject({ status: 303, headers: { location: page } });
    const day = JSON.parse((await store(`/api/store/bookings?date=${tomorrow()}`, { cookie: jar })).body) as {
      items: { id: number; start: string; attendance: string | null; contact: { name: string } }[];
    };
    const booking = day.items.find((b) => b.contact.name === '電話 花子')!;
    expect(booking.start).toBe(`${tomorrow()}T19:00:00+09:00`);

    // Marked arrived, the row offers 取り消す; undone through it, the booking waits again.
    expect((await store(page, { form: { booking: String(booking.id), mark: 'arrived' }, cookie: jar })).status).toBe(303);
    const marked = await store(page, { cookie: jar });
    expect(marked.body).toMatch(new RegExp(`name="action" value="undo"[^]*?name="booking" value="${booking.id}"`));
    const undone = await store(page, { form: { action: 'undo', booking: String(booking.id) }, cookie: jar });
    expect(undone.status).toBe(303);
    expect((await store(page, { cookie: `${jar}; flash=${setCookie(undone, 'flash')!.value}` })).body).toContain('記録を取り消しました');
    const again = JSON.parse((await store(`/api/store/bookings?date=${tomorrow()}`, { cookie: jar })).body) as {
      items: { id: number; attendance: string | null }[];
    };
    expect(again.items.find((b) => b.id === booking.id)?.attendance).toBeNull();
    // Nothing left to undo: refused, and the booking stays as it is.
    const twice = await store(page, { form: { action: 'undo', booking: String(booking.id) }, cookie: jar });
    expect(twice.status).toBe(303);
    expect((await store(page, { cookie: `${jar}; flash=${setCookie(twice, 'flash')!.value}` })).body).toMatch(/class="[^"]*alert-error/);
  });

  it('switches between the account’s stores, and answers 404 for another company’s', async () => {
    const jar = await signIn();
    const list = await store('/list-store-manage', { cookie: jar });
    expect(list.status).toBe(200);
    expect(list.body).toContain('夕方食堂');
    expect(list.body).toContain('テスト酒場 渋谷');
    expect(list.body).not.toContain('極小バー');

    expect((await store(`/list-booking-manage?store=${s.fx.eveningStoreId}`, { cookie: jar })).status).toBe(200);
    const foreign = await store(`/list-booking-manage?store=${s.fx.staffB.storeId}`, { cookie: jar });
    expect(foreign.status).toBe(404);
    expect(foreign.body).not.toContain('極小バー');
    expect((await store(`/list-booking-manage?store=abc`, { cookie: jar })).status).toBe(404);
    expect((await store('/list-store-manage', { form: { store: String(s.fx.staffB.storeId) }, cookie: jar })).status).toBe(404);

    // Chosen in the switcher, the store is kept for the next visit (a cookie checked on every read).
    const chose = await store('/list-store-manage', { form: { store: String(s.fx.eveningStoreId) }, cookie: jar });
    expect(chose).toMatchObject({ status: 303, headers: { location: '/list-booking-manage' } });
    const kept = setCookie(chose, 'sugu_store_choice')!.value;
    const ledger = await store('/list-booking-manage', { cookie: `${jar}; sugu_store_choice=${kept}` });
    expect(ledger.body).toContain(`data-stream="/api/store/stream?store_id=${s.fx.eveningStoreId}"`);
    // A kept choice that is not the account's falls back to its first store, never to another company's.
    const forged = await store('/list-booking-manage', { cookie: `${jar}; sugu_store_choice=${s.fx.staffB.storeId}` });
    expect(forged.body).toContain(`data-stream="/api/store/stream?store_id=${s.fx.storeId}"`);
  });
});
