/**
 * Campaign banners on both engines, at a set clock (SUGU_CLOCK 04:30 in Tokyo, which is still the
 * day before's business day): every call keeps guests (401), diners (403) and another store's
 * staff (404) out; bad input is refused naming the field, with nothing written; a store has a few
 * banners at most; the diner home shows a banner within its business days and not outside them,
 * follows a change and a delete at once, and every write leaves its audit line. The store host's
 * plain form keeps what was typed when it refuses.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { openAppDb, type App } from '../helpers/app';
import { rawRequest } from '../helpers/raw';
import { bearer, staffLogin, startWithStaff, STORE_HOST, type StaffFixture } from './store-fixtures';
import type { Fixture } from './booking-fixtures';
import { bannerJsonSchema, bannerListSchema } from '../../src/lib/contract/staff';
import { BANNER_DAYS_MAX, BANNER_TITLE_MAX, BANNERS_ACTIVE_MAX } from '../../src/lib/contract/limits';
import { addTokyoDays, tokyoInstant } from '../../src/lib/datetime';
import { STORE_SESSION_COOKIE } from '../../src/server/sessions';

type Json = Record<string, any>;
/** The calendar day in Tokyo is 12-03, but at 04:30 the business day is still 12-02. */
const CALENDAR_DAY = '2026-12-03';
const TODAY = '2026-12-02';
const CLOCK = tokyoInstant(CALENDAR_DAY, 4 * 60 + 30);
const day = (n: number) => addTokyoDays(TODAY, n);

for (const engine of ['pglite', 'postgres'] as const) {
  describe(`campaign banners [${engine}]`, () => {
    const s = {} as { app: App; fx: Fixture & StaffFixture; tokenA: string; tokenB: string };
    let cleanup: (() => Promise<void>) | undefined;
    beforeAll(async () => {
      const started = await startWithStaff(engine, { SUGU_CLOCK: CLOCK.toISOString() });
      cleanup = started.cleanup;
      Object.assign(s, { app: started.app, fx: started.fx });
      s.tokenA = (await staffLogin(s.app, s.fx.staffA)).token;
      s.tokenB = (await staffLogin(s.app, s.fx.staffB)).token;
    });
    afterAll(() => cleanup?.());

    const create = (body: Json, token = s.tokenA) => s.app.fetch('/api/store/banners', { method: 'POST', headers: bearer(token), json: body });
    const list = async (storeId: number, token = s.tokenA) =>
      z.parse(bannerListSchema, await (await s.app.fetch(`/api/store/banners?store_id=${storeId}`, { headers: bearer(token) })).json());
    const home = async () => {
      const res = await s.app.fetch('/home', { headers: { 'accept-language': 'ja' } });
      expect(res.status).toBe(200);
      return res.text();
    };
    const made = async (body: Json, token = s.tokenA) => {
      const res = await create(body, token);
      expect([res.status, body.title]).toEqual([201, body.title]);
      return z.parse(bannerJsonSchema, await res.json());
    };
    const refusedField = async (res: Response) => {
      const body = (await res.json()) as Json;
      return [res.status, Object.keys(body.error.fields ?? {})];
    };

    it('keeps every banner call from guests (401), diners (403) and another store’s staff (404)', async () => {
      const mine = await made({ store_id: s.fx.storeId, title: 'A店の秋フェア', starts_on: day(20), ends_on: day(22) });
      const theirs = await made({ store_id: s.fx.tinyStoreId, title: 'B店の新メニュー', starts_on: day(20), ends_on: day(21) }, s.tokenB);
      const calls = (id: number, storeId: number) => [
        { method: 'GET', path: `/api/store/banners?store_id=${storeId}`, ok: 200 },
        { method: 'POST', path: '/api/store/banners', json: { store_id: storeId, title: '確認', starts_on: day(30), ends_on: day(30) }, ok: 201 },
        { method: 'GET', path: `/api/store/banners/${id}`, ok: 200 },
        { method: 'PATCH', path: `/api/store/banners/${id}`, json: { body: '変更' }, ok: 200 },
        { method: 'DELETE', path: `/api/store/banners/${id}`, ok: 204 },
      ];
      const ask = async (call: { method: string; path: string; json?: Json }, headers: Record<string, string>, cookie?: string) => {
        const res = await s.app.fetch(call.path, { method: call.method, json: call.json, headers, cookie });
        return [res.status, res.status >= 400 ? ((await res.json()) as Json).error.code : 'ok'];
      };
      for (const [i, call] of calls(theirs.id, s.fx.tinyStoreId).entries()) {
        const label = `${call.method} ${call.path}`;
        expect([label, await ask(call, {})]).toEqual([label, [401, 'unauthorized']]);
        expect([label, await ask(call, {}, s.fx.users[0]!.cookie)]).toEqual([label, [403, 'forbidden']]);
        expect([label, await ask(call, bearer(s.fx.users[1]!.token))]).toEqual([label, [403, 'forbidden']]);
        expect([label, 'A on B', await ask(call, bearer(s.tokenA))]).toEqual([label, 'A on B', [404, 'not_found']]);
        // Nothing of B's changed meanwhile.
        const still = (await list(s.fx.tinyStoreId, s.tokenB)).items.find((b) => b.id === theirs.id);
        expect([label, i, still?.body]).toEqual([label, i, '']);
      }
      // Their own staff may do each.
      for (const call of calls(mine.id, s.fx.storeId)) expect([call.method, await ask(call, bearer(s.tokenA))]).toEqual([call.method, [call.ok, 'ok']]);
      expect((await list(s.fx.storeId)).items.map((b) => b.id)).not.toContain(mine.id);
      for (const b of (await list(s.fx.storeId)).items) await s.app.fetch(`/api/store/banners/${b.id}`, { method: 'DELETE', headers: bearer(s.tokenA) });
      await s.app.fetch(`/api/store/banners/${theirs.id}`, { method: 'DELETE', headers: bearer(s.tokenB) });
    });

    it('refuses bad input naming the field, in the staff’s language, and writes nothing', async () => {
      const good = { store_id: s.fx.eveningStoreId, title: '夜の部はじめました', body: '17時から営業しています', starts_on: day(1), ends_on: day(3) };
      const cases: [string, Json, string][] = [
        ['a blank title', { title: '   ' }, 'title'],
        ['a title one over the limit', { title: 'あ'.repeat(BANNER_TITLE_MAX + 1) }, 'title'],
        ['a bidi override in the title', { title: 'セール\u202Egpj.exe' }, 'title'],
        ['a control character in the text', { body: '本日\u0007限定' }, 'body'],
        ['an address instead of the link flag', { link_to_store: 'https://example.com/' }, 'link_to_store'],
        ['days out of order', { starts_on: day(3), ends_on: day(1) }, 'ends_on'],
        ['a malformed day', { starts_on: '2026-02-30' }, 'starts_on'],
        ['a banner already over', { starts_on: day(-3), ends_on: day(-1) }, 'ends_on'],
        ['a start in the past', { starts_on: day(-1), ends_on: day(1) }, 'starts_on'],
        ['a start too far ahead', { starts_on: day(200), ends_on: day(201) }, 'starts_on'],
        ['a span too long', { starts_on: day(1), ends_on: day(BANNER_DAYS_MAX + 1) }, 'ends_on'],
        ['another company’s store', { store_id: s.fx.tinyStoreId }, '404'],
      ];
      for (const [what, change, field] of cases) {
        const res = await create({ ...good, ...change });
        if (field === '404') expect([what, res.status]).toEqual([what, 404]);
        else expect([what, await refusedField(res)]).toEqual([what, [400, [field]]]);
      }
      // In the language asked for, Japanese by default (the store host's staff).
      const ja = await s.app.fetch('/api/store/banners', {
        method: 'POST',
        headers: { authorization: `Bearer ${s.tokenA}` },
        json: { ...good, starts_on: day(3), ends_on: day(1) },
      });
      expect(((await ja.json()) as Json).error.fields.ends_on).toBe('掲載終了日は掲載開始日以降にしてください');
      const en = await create({ ...good, starts_on: day(3), ends_on: day(1) });
      expect(((await en.json()) as Json).error.fields.ends_on).toBe('The end date must be on or after the start date');
      expect((await list(s.fx.eveningStoreId)).items).toEqual([]);

      // A change is checked with the days it keeps: an end before the kept start is refused.
      const banner = await made(good);
      const patch = await s.app.fetch(`/api/store/banners/${banner.id}`, { method: 'PATCH', headers: bearer(s.tokenA), json: { ends_on: day(0) } });
      expect(await refusedField(patch)).toEqual([400, ['ends_on']]);
      const empty = await s.app.fetch(`/api/store/banners/${banner.id}`, { method: 'PATCH', headers: bearer(s.tokenA), json: {} });
      expect(empty.status).toBe(400);
      expect((await list(s.fx.eveningStoreId)).items.map((b) => [b.id, b.ends_on])).toEqual([[banner.id, day(3)]]);
      await s.app.fetch(`/api/store/banners/${banner.id}`, { method: 'DELETE', headers: bearer(s.tokenA) });
    });

    it(`lets a store have ${BANNERS_ACTIVE_MAX} banners not ended, and lists them current, upcoming and past`, async () => {
      const ids = [];
      for (let i = 0; i < BANNERS_ACTIVE_MAX; i++)
        ids.push((await made({ store_id: s.fx.eveningStoreId, title: `お知らせ${i}`, starts_on: day(i), ends_on: day(i + 1) })).id);
      const over = await create({ store_id: s.fx.eveningStoreId, title: 'もう一つ', starts_on: day(10), ends_on: day(10) });
      expect([over.status, ((await over.json()) as Json).error.code]).toEqual([409, 'too_many_banners']);
      const listed = await list(s.fx.eveningStoreId);
      expect(listed.today).toBe(TODAY);
      expect(listed.items.map((b) => [b.id, b.state])).toEqual([
        [ids[0], 'current'],
        [ids[1], 'upcoming'],
        [ids[2], 'upcoming'],
      ]);
      for (const id of ids) expect((await s.app.fetch(`/api/store/banners/${id}`, { method: 'DELETE', headers: bearer(s.tokenA) })).status).toBe(204);
      expect((await s.app.fetch(`/api/store/banners/${ids[0]}`, { method: 'DELETE', headers: bearer(s.tokenA) })).status).toBe(404);
    });

    it('shows a banner on the diner home within its business days only, and follows changes at once', async () => {
      // Today's business day (12-02, though the calendar already says 12-03 at 04:30).
      const now = await made({
        store_id: s.fx.storeId,
        title: '本日限定 生ビール半額',
        body: '22時まで',
        link_to_store: true,
        starts_on: TODAY,
        ends_on: TODAY,
      });
      // Starting on the calendar's day: the next business day, not shown yet.
      const later = await made({ store_id: s.fx.tinyStoreId, title: '明日からの限定メニュー', starts_on: CALENDAR_DAY, ends_on: day(2) }, s.tokenB);
      let page = await home();
      expect(page).toContain('本日限定 生ビール半額');
      expect(page).toContain(`data-banner="${now.id}"`);
      expect(page).toContain(`href="/store/${s.fx.storeId}"`);
      expect(page).toMatch(/<section[^>]*aria-label="お店からのお知らせ"/);
      expect(page).not.toContain('明日からの限定メニュー');

      // Moved to start today: shown at once; its text changed too.
      const moved = await s.app.fetch(`/api/store/banners/${later.id}`, {
        method: 'PATCH',
        headers: bearer(s.tokenB),
        json: { starts_on: TODAY, title: '今日からの限定メニュー' },
      });
      expect(moved.status).toBe(200);
      page = await home();
      expect(page).toContain('今日からの限定メニュー');
      expect(page).not.toContain('明日からの限定メニュー');
      // Without the link flag, no link to the store.
      expect(page).not.toContain(`href="/store/${s.fx.tinyStoreId}"`);

      // Deleted: gone from the home page.
      expect((await s.app.fetch(`/api/store/banners/${now.id}`, { method: 'DELETE', headers: bearer(s.tokenA) })).status).toBe(204);
      page = await home();
      expect(page).not.toContain('本日限定 生ビール半額');
      expect(page).toContain('今日からの限定メニュー');

      // Every write has its audit line with the state before and after.
      if (engine === 'postgres') {
        const h = await openAppDb(s.app);
        try {
          const rows =
            await h.sql`select action, store_id, before, after from staff_audit where target_id = ${later.id} and action like 'banner_%' order by id`;
          expect(rows.map((r) => r.action)).toEqual(['banner_create', 'banner_update']);
          expect(rows[1]).toMatchObject({
            store_id: s.fx.tinyStoreId,
            before: { title: '明日からの限定メニュー', starts_on: CALENDAR_DAY },
            after: { title: '今日からの限定メニュー', starts_on: TODAY },
          });
          const gone = await h.sql`select before, after from staff_audit where target_id = ${now.id} and action = 'banner_delete'`;
          expect(gone[0]).toMatchObject({ before: { title: '本日限定 生ビール半額' }, after: null });
        } finally {
          await h.close();
        }
      }
      await s.app.fetch(`/api/store/banners/${later.id}`, { method: 'DELETE', headers: bearer(s.tokenB) });
    });

    it('takes the store host’s plain form: a refusal keeps what was typed (4xx), a success redirects and lists it', async () => {
      const host = new URL(STORE_HOST).host;
      const page = async (path: string, options: { form?: Record<string, string>; cookie?: string } = {}) => {
        const headers: Record<string, string> = { host, 'accept-language': 'ja', ...(options.cookie ? { cookie: options.cookie } : {}) };
        let body: string | undefined;
        if (options.form) {
          body = new URLSearchParams(options.form).toString();
          Object.assign(headers, {
            'content-type': 'application/x-www-form-urlencoded',
            'content-length': String(Buffer.byteLength(body)),
            origin: STORE_HOST,
          });
        }
        return rawRequest(s.app, { method: options.form ? 'POST' : 'GET', path, headers, body });
      };
      const signIn = await page('/store-signin', { form: { email: s.fx.staffA.email, password: s.fx.staffA.password } });
      expect(signIn.status).toBe(303);
      const line = (signIn.headers['set-cookie'] ?? []).find((l) => l.startsWith(`${STORE_SESSION_COOKIE}=`))!;
      const jar = line.split(';')[0]!;

      const typed = { action: 'create', title: '冬の鍋フェア', body: 'ご予約の方に一品サービス', link_to_store: 'on', starts_on: day(5), ends_on: day(2) };
      const refused = await page(`/campaign-banner?store=${s.fx.eveningStoreId}`, { form: typed, cookie: jar });
      expect(refused.status).toBe(400);
      expect(refused.body).toContain('掲載終了日は掲載開始日以降にしてください');
      expect(refused.body).toContain('value="冬の鍋フェア"');
      expect(refused.body).toContain('ご予約の方に一品サービス</textarea>');
      expect(refused.body).toContain(`value="${day(5)}"`);
      expect((await list(s.fx.eveningStoreId)).items).toEqual([]);

      const saved = await page(`/campaign-banner?store=${s.fx.eveningStoreId}`, { form: { ...typed, ends_on: day(6) }, cookie: jar });
      expect(saved).toMatchObject({ status: 303, headers: { location: `/campaign-banner?store=${s.fx.eveningStoreId}` } });
      const [banner] = (await list(s.fx.eveningStoreId)).items;
      expect(banner).toMatchObject({
        title: '冬の鍋フェア',
        body: 'ご予約の方に一品サービス',
        link_to_store: true,
        starts_on: day(5),
        ends_on: day(6),
        state: 'upcoming',
      });
      const shown = await page(`/campaign-banner?store=${s.fx.eveningStoreId}`, { cookie: jar });
      expect(shown.body).toContain(`data-banner="${banner!.id}"`);

      // Another company's banner cannot be opened for editing, nor changed through the form.
      const theirs = await made({ store_id: s.fx.tinyStoreId, title: 'B店のお知らせ', starts_on: day(1), ends_on: day(1) }, s.tokenB);
      expect((await page(`/campaign-banner?edit=${theirs.id}`, { cookie: jar })).status).toBe(404);
      const taken = await page('/campaign-banner', {
        form: { action: 'update', banner: String(theirs.id), title: '乗っ取り', body: '', starts_on: day(1), ends_on: day(1) },
        cookie: jar,
      });
      expect(taken.status).toBe(404);
      expect((await list(s.fx.tinyStoreId, s.tokenB)).items.map((b) => b.title)).toEqual(['B店のお知らせ']);
    });
  });
}
