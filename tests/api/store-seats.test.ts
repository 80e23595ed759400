/**
 * The seat screens on the store host (list-seat-manage, edit-seat/{id}) on both engines: their plain
 * forms call the same services as POST/PATCH/DELETE /api/store/tables and PUT /api/store/turn-times,
 * answer by a redirect, and a refusal comes back 4xx with each field's error in Japanese and what
 * was typed. Another company's table is the store host's 404, a diner's session gets nothing, and
 * a table is never changed or removed from under a booking still to come.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { openAppDb } from '../helpers/app';
import { rawRequest, type RawResponse } from '../helpers/raw';
import { STORE_SESSION_COOKIE } from '../../src/server/sessions';
import { storeTableSchema, storeTablesSchema } from '../../src/lib/contract/staff';
import { bearer, staffServer, STORE_HOST } from './store-fixtures';
import { tokyoStart } from './booking-fixtures';

type Json = Record<string, any>;

describe.each(['pglite', 'postgres'] as const)('store host seat screens [%s]', (engine) => {
  const s = staffServer(engine);
  const host = new URL(STORE_HOST).host;

  /** One request to the store host as a browser on it sends it (its own Origin on a form post). */
  const store = (path: string, options: { form?: Record<string, string>; cookie?: string } = {}): Promise<RawResponse> => {
    const headers: Record<string, string> = { host, 'accept-language': 'ja', ...(options.cookie ? { cookie: options.cookie } : {}) };
    let body: string | undefined;
    if (options.form) {
      body = new URLSearchParams(options.form).toString();
      Object.assign(headers, { 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(Buffer.byteLength(body)), origin: STORE_HOST });
    }
    return rawRequest(s.app, { method: options.form ? 'POST' : 'GET', path, headers, body });
  };
  const flashOf = (res: RawResponse) => (res.headers['set-cookie'] ?? []).find((l) => l.startsWith('flash='))!.split(';')[0]!;

  const signIn = async () => {
    const res = await store('/store-signin', { form: { email: s.fx.staffA.email, password: s.fx.staffA.password } });
    expect(res.status).toBe(303);
    const line = (res.headers['set-cookie'] ?? []).find((l) => l.startsWith(`${STORE_SESSION_COOKIE}=`))!;
    return line.split(';')[0]!;
  };
  const tables = async (storeId: number, token = s.tokenA) =>
    z.parse(storeTablesSchema, await (await s.app.fetch(`/api/store/tables?store_id=${storeId}`, { headers: bearer(token) })).json());

  it('adds a table from the list’s form, shows it, edits its capacity on edit-seat, and sets the turn times', async () => {
    const jar = await signIn();
    const page = await store('/list-seat-manage', { cookie: jar });
    expect(page.status).toBe(200);
    expect(page.body).toContain('席の管理');
    for (const table of (await tables(s.fx.storeId)).items) expect(page.body).toContain(`href="/edit-seat/${table.id}"`);

    const added = await store('/list-seat-manage', {
      form: { action: 'table', label: '窓際 W1', kind: 'private_room', min_party: '2', max_party: '6', online: 'on' },
      cookie: jar,
    });
    expect(added).toMatchObject({ status: 303, headers: { location: '/list-seat-manage' } });
    const table = (await tables(s.fx.storeId)).items.find((x) => x.label === '窓際 W1')!;
    expect(table).toMatchObject({ kind: 'private_room', min_party: 2, max_party: 6, online: true });
    const shown = await store('/list-seat-manage', { cookie: `${jar}; ${flashOf(added)}` });
    expect(shown.body).toContain('「窓際 W1」を追加しました');
    expect(shown.body).toMatch(new RegExp(`data-table="${table.id}"[^]*?窓際 W1[^]*?個室[^]*?2〜6名[^]*?ネット予約可`));

    const edit = await store(`/edit-seat/${table.id}`, { cookie: jar });
    expect(edit.status).toBe(200);
    expect(edit.body).toContain('value="窓際 W1"');
    expect(edit.body).toMatch(/<option value="private_room" selected/);
    // Full-width digits (a tablet's IME) are read as the numbers they are.
    const saved = await store(`/edit-seat/${table.id}`, {
      form: { action: 'table', label: '窓際 W1', kind: 'private_room', min_party: '３', max_party: '８' },
      cookie: jar,
    });
    expect(saved).toMatchObject({ status: 303, headers: { location: `/list-seat-manage?store=${s.fx.storeId}` } });
    expect(
      z.parse(
        storeTableSchema,
        (await tables(s.fx.storeId)).items.find((x) => x.id === table.id),
      ),
    ).toMatchObject({ min_party: 3, max_party: 8, online: false });
    const listed = await store(`/list-seat-manage?store=${s.fx.storeId}`, { cookie: `${jar}; ${flashOf(saved)}` });
    expect(listed.body).toContain('「窓際 W1」を保存しました');
    expect(listed.body).toMatch(new RegExp(`data-table="${table.id}"[^]*?3〜8名[^]*?ウォークイン専用`));

    // Turn times: the sizes given a time are set, the others keep the standard stay.
    const turn = await store('/list-seat-manage', {
      form: { action: 'turn_times', stay_minutes: '100', turn_2: '80', turn_6: '150', turn_3: '' },
      cookie: jar,
    });
    expect(turn.status).toBe(303);
    expect(await tables(s.fx.storeId)).toMatchObject({
      stay_minutes: 100,
      turn_times: [
        { party_size: 2, minutes: 80 },
        { party_size: 6, minutes: 150 },
      ],
    });
    const after = await store('/list-seat-manage', { cookie: `${jar}; ${flashOf(turn)}` });
    expect(after.body).toContain('ターン時間を保存しました');
    expect(after.body).toMatch(/id="f-turn_6"[^>]*value="150"/);

    if (engine === 'postgres') {
      const h = await openAppDb(s.app);
      try {
        const rows = await h.sql`select action, before, after from staff_audit where target_id = ${table.id} and action like 'table_%' order by id`;
        expect(rows.map((r) => r.action)).toEqual(['table_create', 'table_set']);
        expect(rows[1]).toMatchObject({ before: { min_party: 2, max_party: 6, online: true }, after: { min_party: 3, max_party: 8, online: false } });
      } finally {
        await h.close();
      }
    }
  });

  it('refuses bad input 4xx with the field’s error in Japanese, keeps what was typed, and writes nothing', async () => {
    const jar = await signIn();
    const before = await tables(s.fx.storeId);
    const upside = await store('/list-seat-manage', {
      form: { action: 'table', label: '逆さ席', kind: 'table', min_party: '6', max_party: '2', online: 'on' },
      cookie: jar,
    });
    expect(upside.status).toBe(400);
    expect(upside.body).toMatch(/id="f-max_party-error"[^>]*>最大人数は最小人数以上にしてください</);
    expect(upside.body).toContain('value="逆さ席"');
    expect(upside.body).toMatch(/id="f-min_party"[^>]*value="6"/);

    const words = await store('/list-seat-manage', { form: { action: 'table', label: '', kind: 'table', min_party: '二', max_party: '4' }, cookie: jar });
    expect(words.status).toBe(400);
    expect(words.body).toMatch(/id="f-label-error"[^>]*>[^<]*席の名前/);
    expect(words.body).toMatch(/id="f-min_party-error"[^>]*>[^<]*最小人数/);
    expect(words.body).toMatch(/id="f-min_party"[^>]*value="二"/);

    const taken = before.items[0]!.label;
    const twice = await store('/list-seat-manage', {
      form: { action: 'table', label: ` ${taken.toLowerCase()} `, kind: 'table', min_party: '1', max_party: '2' },
      cookie: jar,
    });
    expect(twice.status).toBe(400);
    expect(twice.body).toContain('この店舗にはすでに同じ名前の席があります');

    const turn = await store('/list-seat-manage', { form: { action: 'turn_times', stay_minutes: '90', turn_4: '9999', turn_5: '60' }, cookie: jar });
    expect(turn.status).toBe(400);
    expect(turn.body).toMatch(/id="f-turn_4-error"[^>]*>[^<]+</);
    expect(turn.body).not.toContain('id="f-turn_5-error"');
    expect(turn.body).toMatch(/id="f-turn_4"[^>]*value="9999"/);
    expect(turn.body).toMatch(/id="f-turn_5"[^>]*value="60"/);

    const table = before.items[0]!;
    const edit = await store(`/edit-seat/${table.id}`, {
      form: { action: 'table', label: table.label, kind: 'sofa', min_party: '1', max_party: '30' },
      cookie: jar,
    });
    expect(edit.status).toBe(400);
    expect(edit.body).toMatch(/id="f-kind-error"[^>]*>[^<]+</);
    expect(edit.body).toMatch(/id="f-max_party-error"[^>]*>[^<]+</);
    expect(edit.body).toMatch(/id="f-max_party"[^>]*value="30"/);
    expect(await tables(s.fx.storeId)).toEqual(before);
  });

  it('answers another company’s table with the store host’s 404 page, and changes nothing', async () => {
    const jar = await signIn();
    const foreign = (await tables(s.fx.tinyStoreId, s.tokenB)).items[0]!;
    for (const path of [`/edit-seat/${foreign.id}`, '/edit-seat/999999']) {
      const page = await store(path, { cookie: jar });
      expect([path, page.status]).toEqual([path, 404]);
      expect(page.body).toContain('すぐ予約 店舗管理');
      expect(page.body).not.toContain(`value="${foreign.label}"`);
    }
    expect(
      (await store(`/edit-seat/${foreign.id}`, { form: { action: 'table', label: '乗っ取り', kind: 'table', min_party: '1', max_party: '2' }, cookie: jar }))
        .status,
    ).toBe(404);
    expect((await store(`/edit-seat/${foreign.id}`, { form: { action: 'delete' }, cookie: jar })).status).toBe(404);
    expect(
      (
        await store(`/list-seat-manage?store=${s.fx.tinyStoreId}`, {
          form: { action: 'table', label: '乗っ取り', kind: 'table', min_party: '1', max_party: '2' },
          cookie: jar,
        })
      ).status,
    ).toBe(404);
    // The JSON calls say the same.
    expect((await s.app.fetch(`/api/store/tables/${foreign.id}`, { method: 'PATCH', headers: bearer(s.tokenA), json: { label: '乗っ取り' } })).status).toBe(
      404,
    );
    expect((await s.app.fetch(`/api/store/tables/${foreign.id}`, { method: 'DELETE', headers: bearer(s.tokenA) })).status).toBe(404);
    expect(
      (
        await s.app.fetch('/api/store/tables', {
          method: 'POST',
          headers: bearer(s.tokenA),
          json: { store_id: s.fx.tinyStoreId, label: '乗っ取り', kind: 'table', min_party: 1, max_party: 2 },
        })
      ).status,
    ).toBe(404);
    expect((await tables(s.fx.tinyStoreId, s.tokenB)).items).toEqual([foreign]);
  });

  it('gives a diner’s session nothing: no screen, no table added', async () => {
    const diner = s.fx.users[0]!;
    const token = diner.token;
    for (const path of ['/list-seat-manage', `/edit-seat/${(await tables(s.fx.storeId)).items[0]!.id}`]) {
      const page = await store(path, { cookie: `${STORE_SESSION_COOKIE}=${token}` });
      expect([path, page.status]).toEqual([path, 302]);
      expect(page.headers.location).toMatch(/^\/store-signin/);
    }
    const posted = await store('/list-seat-manage', {
      form: { action: 'table', label: '客の席', kind: 'table', min_party: '1', max_party: '2' },
      cookie: `${STORE_SESSION_COOKIE}=${token}`,
    });
    expect(posted.status).toBe(302);
    const api = await s.app.fetch('/api/store/tables', {
      method: 'POST',
      cookie: diner.cookie,
      json: { label: '客の席', kind: 'table', min_party: 1, max_party: 2 },
    });
    expect(api.status).toBe(403);
    expect((await tables(s.fx.storeId)).items.some((x) => x.label === '客の席')).toBe(false);
  });

  it('keeps a table with a booking to come: a range leaving the party out and removal are refused; a never-booked table is removed', async () => {
    const jar = await signIn();
    const evening = (await tables(s.fx.eveningStoreId)).items[0]!;
    const booked = await s.app.fetch('/api/bookings', {
      method: 'POST',
      cookie: s.fx.users[1]!.cookie,
      json: { store_id: s.fx.eveningStoreId, start: tokyoStart(1, 20), party_size: 4 },
    });
    expect(booked.status).toBe(201);

    const narrowed = await store(`/edit-seat/${evening.id}`, {
      form: { action: 'table', label: evening.label, kind: evening.kind, min_party: '1', max_party: '2', online: 'on' },
      cookie: jar,
    });
    expect(narrowed.status).toBe(409);
    expect(narrowed.body).toMatch(/id="f-max_party-error"[^>]*>この席には新しい人数に収まらない今後の予約があります（1件）/);
    expect(narrowed.body).toMatch(/id="f-max_party"[^>]*value="2"/);
    const removal = await store(`/edit-seat/${evening.id}`, { form: { action: 'delete' }, cookie: jar });
    expect(removal.status).toBe(409);
    expect(removal.body).toContain('今後の予約・ウォークイン・ブロックがあるため削除できません（1件）');
    expect((await tables(s.fx.eveningStoreId)).items).toEqual([evening]);
    // The JSON call names the code clients branch on.
    const api = await s.app.fetch(`/api/store/tables/${evening.id}`, { method: 'PATCH', headers: bearer(s.tokenA), json: { max_party: 3 } });
    expect(api.status).toBe(409);
    expect(((await api.json()) as Json).error).toMatchObject({ code: 'table_in_use', fields: { max_party: expect.any(String) } });
    // A wider range is fine.
    expect((await s.app.fetch(`/api/store/tables/${evening.id}`, { method: 'PATCH', headers: bearer(s.tokenA), json: { max_party: 6 } })).status).toBe(200);

    const made = await s.app.fetch('/api/store/tables', {
      method: 'POST',
      headers: bearer(s.tokenA),
      json: { store_id: s.fx.eveningStoreId, label: '仮席', kind: 'counter', min_party: 1, max_party: 1 },
    });
    expect(made.status).toBe(201);
    const fresh = z.parse(storeTableSchema, await made.json());
    const gone = await store(`/edit-seat/${fresh.id}`, { form: { action: 'delete' }, cookie: jar });
    expect(gone).toMatchObject({ status: 303, headers: { location: `/list-seat-manage?store=${s.fx.eveningStoreId}` } });
    expect((await store(`/list-seat-manage?store=${s.fx.eveningStoreId}`, { cookie: `${jar}; ${flashOf(gone)}` })).body).toContain('「仮席」を削除しました');
    expect((await tables(s.fx.eveningStoreId)).items.map((x) => x.id)).toEqual([evening.id]);
    expect((await store(`/edit-seat/${fresh.id}`, { cookie: jar })).status).toBe(404);
  });
});
