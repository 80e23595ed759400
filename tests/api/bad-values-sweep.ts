/**
 * Bad values are 4xx (issue 26 §5): every operation of the OpenAPI document the server serves, and
 * every product form, fed each class of bad value — ids that are huge, negative, zero, fractional or
 * just past 2³¹−1; instants far past and future, year 0 and 9999; lone surrogates, C0 and C1
 * controls, bidi overrides, zero-width characters and very long text — in every path parameter,
 * query parameter and body property, as a diner and as store staff. Nothing may answer 5xx.
 * Around that: what the text rule lets through is stored clean (tests/unit covers the rule itself).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App, Engine } from '../helpers/app';
import { startWithFixture, tokyoStart, type Fixture } from './booking-fixtures';
import { DEMO_STAFF } from '../../src/server/db/seed-data';

type Json = Record<string, unknown>;
interface Parameter {
  name: string;
  in: 'path' | 'query';
  schema?: Json;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { content: { 'application/json': { schema: { properties?: Record<string, Json>; required?: string[] } } } };
  security?: unknown[];
  responses: Record<string, unknown>;
}

/** Ids as a path or a query carries them: none of them names a row. */
const BAD_ID_TEXTS = ['0', '-1', '2147483648', '4294967296', '99999999999999999999', '1.5', '1e3', '0x10', '01', ' 1', 'abc', '%F0%9F%8D%A3', '%00'];
/** Numbers in a JSON body. */
const BAD_NUMBERS: unknown[] = [0, -1, 2147483648, -2147483649, 1e20, 1.5, Number.MAX_SAFE_INTEGER + 2, '1', null, true, [], {}];
/** Instants and days outside anything bookable. */
const BAD_INSTANTS = [
  '9999-12-31T23:59:59+09:00',
  '0000-01-01T00:00:00Z',
  '0001-01-01T00:00:00Z',
  '1970-01-01T00:00:00Z',
  '2999-01-01T19:00:00+09:00',
  '+275760-09-13T00:00:00Z',
  '-000001-01-01T00:00:00Z',
  '9999-12-31',
  '0000-01-01',
  '2026-02-30',
];
/** Text that is not text, or too much of it. */
const BAD_TEXTS = [
  '\ud800',
  'a\udfffb',
  '\udc00\ud800',
  'x\u0007y',
  'x\u0000y',
  'x\u0085y',
  'x\u009fy',
  '山田\u202e花子',
  'x\u2066y',
  'x\u200by',
  '\ufeff',
  'x\r\ny',
  'x\ty',
  '\u007f',
  'あ'.repeat(5000),
];
const BAD_VALUES: unknown[] = [...BAD_NUMBERS, ...BAD_INSTANTS, ...BAD_TEXTS];
const BAD_QUERY_VALUES = [...BAD_ID_TEXTS, ...BAD_INSTANTS, ...BAD_TEXTS.map((s) => s.slice(0, 300))];
/** For forms and pages, which render a whole page each time: one of each class. */
const BAD_FORM_VALUES = [
  '0',
  '-1',
  '2147483648',
  '99999999999999999999',
  '1.5',
  'abc',
  '9999-12-31T23:59:59+09:00',
  '0000-01-01T00:00:00Z',
  '+275760-09-13T00:00:00Z',
  '9999-12-31',
  '\ud800',
  'x\u0007y',
  'x\u0085y',
  '山田\u202e花子',
  'x\u200by',
  'x\r\ny',
  'あ'.repeat(3000),
];

/** The sweep on one engine; each engine has its own file, so that the two run side by side in two workers. */
export function badValuesAre4xx(engine: Engine): void {
  describe(`bad values are 4xx [${engine}]`, () => {
    let app: App;
    let fx: Fixture;
    let cleanup: () => Promise<void>;
    let diner: string;
    let staff: string;
    let staffStoreId: number;
    let tableId: number;
    let bookingId: number;
    let staffBookingId: number;
    let guest: { id: number; token: string };
    let hours: unknown;
    const failures: string[] = [];
    let sent = 0;
    let queue: Array<() => Promise<unknown>> = [];
    /** Runs the queued probes four at a time (a busy two-core machine answers that many at once). */
    async function drain() {
      const jobs = queue;
      queue = [];
      let next = 0;
      await Promise.all(
        Array.from({ length: 4 }, async () => {
          while (next < jobs.length) await jobs[next++]!();
        }),
      );
    }

    /** Sends one request; a 5xx (or a server that does not answer) is a failure, named by what was sent. */
    async function probe(
      label: string,
      path: string,
      init: { method: string; cookie?: string; json?: unknown; form?: Record<string, string>; headers?: Record<string, string> },
    ) {
      sent++;
      const controller = new AbortController();
      const headers: Record<string, string> = { 'accept-language': 'ja', ...init.headers };
      let body: string | undefined;
      if (init.json !== undefined) {
        headers['content-type'] = 'application/json';
        body = JSON.stringify(init.json);
      } else if (init.form) {
        headers['content-type'] = 'application/x-www-form-urlencoded';
        body = new URLSearchParams(init.form).toString();
      }
      let status: number;
      try {
        const res = await app.fetch(path, { method: init.method, cookie: init.cookie, headers, body, signal: controller.signal });
        status = res.status;
        // Streams stay open on valid input: the status is what counts.
        if (!(res.headers.get('content-type') ?? '').startsWith('text/event-stream')) await res.arrayBuffer();
      } catch (error) {
        failures.push(`${label}: ${init.method} ${path.slice(0, 120)} → no answer (${String(error)})`);
        return 0;
      } finally {
        controller.abort();
      }
      if (status >= 500) failures.push(`${label}: ${init.method} ${path.slice(0, 160)} → ${status}`);
      return status;
    }

    beforeAll(async () => {
      ({ app, fx, cleanup } = await startWithFixture(engine));
      diner = fx.users[0]!.cookie;
      const login = await app.fetch('/api/login', { method: 'POST', json: { email: DEMO_STAFF.email, password: DEMO_STAFF.password } });
      expect(login.status).toBe(200);
      staff = login.headers
        .getSetCookie()
        .map((c) => c.split(';')[0])
        .join('; ');
      const tables = (await (await app.fetch('/api/store/tables', { cookie: staff })).json()) as { store_id: number; items: { id: number }[] };
      staffStoreId = tables.store_id;
      tableId = tables.items[0]!.id;
      hours = ((await (await app.fetch('/api/store/hours', { cookie: staff })).json()) as { hours: unknown }).hours;
      const booked = await app.fetch('/api/bookings', {
        method: 'POST',
        cookie: diner,
        json: { store_id: fx.storeId, start: tokyoStart(3, 13), party_size: 2 },
      });
      expect(booked.status).toBe(201);
      bookingId = ((await booked.json()) as { id: number }).id;
      const g = await app.fetch('/api/guest-bookings', {
        method: 'POST',
        json: {
          store_id: fx.storeId,
          start: tokyoStart(3, 15),
          party_size: 2,
          name: '山田 花子',
          name_kana: 'ヤマダ ハナコ',
          phone: '090-1234-5678',
          email: 'hanako@example.jp',
        },
      });
      expect(g.status).toBe(201);
      const gj = (await g.json()) as { id: number; edit_token: string };
      guest = { id: gj.id, token: gj.edit_token };
      // A booking at the staff's store, for the store's own calls.
      const slots = (await (await app.fetch(`/api/stores/${staffStoreId}/availability?party=2&date=${tokyoStart(2, 12).slice(0, 10)}`)).json()) as {
        slots?: { start: string; free_tables: number }[];
      };
      const free = (slots.slots ?? []).find((s) => s.free_tables > 0);
      const sb = free
        ? await app.fetch('/api/bookings', { method: 'POST', cookie: fx.users[1]!.cookie, json: { store_id: staffStoreId, start: free.start, party_size: 2 } })
        : null;
      staffBookingId = sb?.status === 201 ? ((await sb.json()) as { id: number }).id : bookingId;
    });
    afterAll(() => cleanup?.());

    it('answers every operation of the OpenAPI document 4xx (or 2xx), never 5xx, for every class of bad value', async () => {
      const doc = (await (await app.fetch('/api/openapi.json')).json()) as { paths: Record<string, Record<string, Operation>> };
      const start = tokyoStart(4, 19);
      /** A value each property takes when it is not the one being probed: valid where it matters. */
      const valid: Record<string, unknown> = {
        store_id: fx.storeId,
        area_id: 1,
        table_id: tableId,
        start,
        end: tokyoStart(4, 20),
        party_size: 2,
        name: '山田 花子',
        name_kana: 'ヤマダ ハナコ',
        phone: '090-1234-5678',
        email: 'hanako@example.jp',
        note: '窓際',
        reason: '貸切',
        mark: 'arrived',
        date: tokyoStart(10, 12).slice(0, 10),
        hours,
        seat_preference: null,
        agree: true,
        confirm: true,
        // Wrong on purpose: the account's password is never changed and the account never deleted.
        password: 'not-the-password-1',
        current_password: 'not-the-password-1',
        new_password: 'another-long-one-2',
        token: 'x'.repeat(43),
      };
      const ops: string[] = [];
      for (const [template, methods] of Object.entries(doc.paths)) {
        for (const [method, op] of Object.entries(methods)) {
          const M = method.toUpperCase();
          ops.push(`${M} ${template}`);
          const staffOp = template.startsWith('/api/store/');
          // Signing out ends the session the run uses.
          const cookie = template === '/api/login' && M === 'DELETE' ? undefined : staffOp ? staff : diner;
          const headers: Record<string, string> = template.startsWith('/api/guest-bookings/') ? { 'x-booking-token': guest.token } : {};
          const idFor = (name: string) =>
            template.startsWith('/api/bookings/')
              ? bookingId
              : template.startsWith('/api/guest-bookings/')
                ? guest.id
                : template.startsWith('/api/store/bookings/')
                  ? staffBookingId
                  : template.startsWith('/api/store/tables/')
                    ? tableId
                    : name === 'storeId' || template.startsWith('/api/stores/')
                      ? fx.storeId
                      : 1;
          const pathParams = (op.parameters ?? []).filter((p) => p.in === 'path');
          const queryParams = (op.parameters ?? []).filter((p) => p.in === 'query');
          const fill = (over: Record<string, string> = {}) => template.replace(/\{(\w+)\}/g, (_, n: string) => over[n] ?? String(idFor(n)));
          const props = op.requestBody?.content['application/json'].schema.properties ?? {};
          const baseBody = () => {
            const body: Json = {};
            for (const [name, schema] of Object.entries(props)) body[name] = name in valid ? valid[name] : sample(schema);
            if (staffOp && 'store_id' in body) body.store_id = staffStoreId;
            return body;
          };
          const body = op.requestBody ? baseBody() : undefined;
          // Deleting is probed with bad ids only: a valid one would take away what the rest probes.
          for (const p of pathParams)
            for (const bad of BAD_ID_TEXTS) queue.push(() => probe('path', fill({ [p.name]: bad }), { method: M, cookie, json: body, headers }));
          for (const p of queryParams) {
            for (const bad of BAD_QUERY_VALUES) queue.push(() => probe(`query ${p.name}`, `${fill()}?${p.name}=${enc(bad)}`, { method: M, cookie, headers }));
          }
          if (M === 'DELETE' && !op.requestBody) continue;
          for (const name of Object.keys(props)) {
            for (const bad of BAD_VALUES) queue.push(() => probe(`body ${name}`, fill(), { method: M, cookie, json: { ...body, [name]: bad }, headers }));
          }
        }
      }
      // The document was read, and it is the whole API (its own unit test checks it against the routes).
      expect(ops).toEqual(
        expect.arrayContaining(['POST /api/guest-bookings', 'PATCH /api/bookings/{id}', 'GET /api/watches', 'PATCH /api/store/bookings/{id}']),
      );
      await drain();
      expect(ops.length).toBeGreaterThan(40);
      expect(sent).toBeGreaterThan(2000);
      expect(failures).toEqual([]);
    }, 600_000);

    it('answers every product form 4xx (or a page), never 5xx, for every class of bad value', async () => {
      const s = fx.storeId;
      const guestEdit = `/store/${s}/booking-without/edit/${guest.id}?token=${encodeURIComponent(guest.token)}`;
      const bookingFields = {
        intent: 'book',
        date: tokyoStart(4, 12).slice(0, 10),
        start: tokyoStart(4, 21),
        party_size: '2',
        seat_preference: '',
        note: '窓際',
      };
      const contact = { name: '山田 花子', name_kana: 'ヤマダ ハナコ', phone: '090-1234-5678', email: 'hanako@example.jp', remember: '' };
      const forms: Array<{ path: string; cookie?: string; fields: Record<string, string> }> = [
        { path: `/store/${s}/booking`, cookie: diner, fields: bookingFields },
        { path: `/store/${s}/booking-without`, fields: { ...bookingFields, ...contact } },
        { path: `/store/${s}/booking/edit/${bookingId}`, cookie: diner, fields: { ...bookingFields, intent: 'next' } },
        { path: guestEdit, fields: { ...bookingFields, ...contact, intent: 'next' } },
        {
          path: '/watches',
          cookie: diner,
          fields: { store_id: String(s), area_id: '', genre: '', keyword: '', party_size: '2', from: '', minutes: '60', email: '', next: '' },
        },
        {
          path: '/watches',
          fields: { store_id: '', area_id: '1', genre: '', keyword: '焼鳥', party_size: '2', from: '', minutes: '60', email: 'watch@example.jp', next: '' },
        },
        { path: '/watches', cookie: diner, fields: { intent: 'cancel', id: '1' } },
        { path: '/account-info', cookie: diner, fields: { intent: 'push-remove', id: '1' } },
        { path: '/account-info', cookie: diner, fields: { intent: 'oidc-unlink', provider: 'line' } },
        { path: '/watches/confirm', fields: { token: 'x'.repeat(43) } },
        { path: '/preferences', fields: { locale: 'en', theme: 'dark', back: '/home' } },
        { path: `/favourites/${s}`, cookie: diner, fields: { favourite: '1', referer: '/home' } },
        { path: '/viewed-list', cookie: diner, fields: { store_id: String(s) } },
        { path: '/auth/signup', fields: { name: '佐藤 太郎', email: 'bad-values@example.jp', password: 'long-enough-pass-1', agree: 'on' } },
        { path: '/auth/signin', fields: { email: 'nobody@example.jp', password: 'not-the-password-1' } },
        { path: '/auth/forgot-password', fields: { email: 'nobody@example.jp' } },
        { path: '/auth/reset-password', fields: { token: 'x'.repeat(43), password: 'long-enough-pass-1' } },
        { path: '/account-info', cookie: diner, fields: { name: '予約 太郎', name_kana: 'ヨヤク タロウ', phone: '03-1234-5678', email: fx.users[0]!.email } },
        { path: '/user-change-password', cookie: diner, fields: { current_password: 'not-the-password-1', new_password: 'another-long-one-2' } },
        { path: '/user-leave-association', cookie: diner, fields: { password: 'not-the-password-1', confirm: 'on' } },
      ];
      for (const form of forms) {
        for (const name of Object.keys(form.fields)) {
          for (const bad of BAD_FORM_VALUES) {
            queue.push(() => probe(`form ${name}`, form.path, { method: 'POST', cookie: form.cookie, form: { ...form.fields, [name]: bad } }));
          }
        }
      }
      // The pages that read a query or an id from their address, and the search forms (GET).
      const pages: Array<{ path: string; cookie?: string; query: string[] }> = [
        { path: '/home', query: ['area', 'name', 'party', 'genre', 'budget_max', 'seat', 'tag', 'lat', 'lng', 'page', 'sort'] },
        { path: '/stores', query: ['area', 'name', 'party', 'genre', 'page', 'lat', 'lng'] },
        { path: `/store/${s}`, query: ['date', 'party', 'seat'] },
        { path: `/store/${s}/booking`, cookie: diner, query: ['start', 'party', 'date', 'seat'] },
        { path: `/store/${s}/booking-without`, query: ['start', 'party', 'date', 'seat'] },
        { path: '/watches', query: ['store_id', 'area_id', 'genre', 'keyword', 'party', 'party_size', 'from'] },
        { path: '/watches', cookie: diner, query: ['store_id', 'area_id', 'from'] },
        { path: '/watches/confirm', query: ['token'] },
        { path: '/favourite', cookie: diner, query: ['party'] },
        { path: '/viewed-list', cookie: diner, query: ['party'] },
        { path: '/booking-list', cookie: diner, query: ['page', 'tab'] },
        { path: '/auth/signin', query: ['next', 'reset'] },
        { path: '/auth/reset-password', query: ['token'] },
        { path: '/fragments/store-results', query: ['area', 'party', 'from'] },
      ];
      for (const page of pages) {
        for (const name of page.query) {
          for (const bad of BAD_FORM_VALUES)
            queue.push(() => probe(`page ${name}`, `${page.path}?${name}=${enc(bad)}`, { method: 'GET', cookie: page.cookie }));
        }
      }
      const idPages = (bad: string) => [
        `/store/${bad}`,
        `/store/${bad}/booking`,
        `/store/${bad}/booking-without`,
        `/store/${s}/booking/edit/${bad}`,
        `/store/${s}/booking/complete/${bad}`,
        `/store/${bad}/booking/edit/${bookingId}`,
        `/store/${s}/booking-without/edit/${bad}?token=x`,
      ];
      for (const bad of BAD_ID_TEXTS) {
        for (const path of idPages(bad)) {
          queue.push(() => probe('page id', path, { method: 'GET', cookie: diner }));
          queue.push(() => probe('form id', path, { method: 'POST', cookie: diner, form: bookingFields }));
        }
        queue.push(() => probe('form id', `/favourites/${bad}`, { method: 'POST', cookie: diner, form: { favourite: '1' } }));
      }
      await drain();
      expect(failures).toEqual([]);
    }, 600_000);

    it('stores a guest name without controls, bidi overrides or zero-width characters, and refuses what cannot be cleaned with a field error', async () => {
      const body = (name: string, hour: number) => ({
        store_id: fx.storeId,
        start: tokyoStart(5, hour),
        party_size: 2,
        name,
        name_kana: 'ヤマダ ハナコ',
        phone: '090-1234-5678',
        email: 'hanako@example.jp',
        note: '卵\r\nアレルギー\u200b',
      });
      for (const name of ['山田\u202e花子', '山田\u0007花子', '山田\u0085花子', '山田\ud800花子', '山田\u2067花子']) {
        const res = await app.fetch('/api/guest-bookings', { method: 'POST', headers: { 'accept-language': 'ja' }, json: body(name, 9) });
        expect([name, res.status]).toEqual([name, 400]);
        const { error } = (await res.json()) as { error: { fields?: Record<string, string> } };
        expect(error.fields?.name).toMatch(/使用できない文字/);
      }
      const res = await app.fetch('/api/guest-bookings', { method: 'POST', json: body('\u200b山田\r\n花子\ufeff', 10) });
      expect(res.status).toBe(201);
      const booked = (await res.json()) as { guest?: { name: string }; note: string };
      expect(booked.guest?.name).toBe('山田  花子');
      expect(booked.note).toBe('卵\nアレルギー');
    });
  });
}

/**
 * A query value as a client may send it: a lone surrogate has no UTF-8 form, so it goes as the
 * bytes a careless encoder writes for it (CESU-8), which are not UTF-8 either.
 */
function enc(value: string): string {
  return value
    .split(/([\ud800-\udfff])/)
    .map((part) =>
      /^[\ud800-\udfff]$/.test(part)
        ? `%ED%${(0x80 + ((part.charCodeAt(0) >> 6) & 0x3f)).toString(16).toUpperCase()}%${(0x80 + (part.charCodeAt(0) & 0x3f)).toString(16).toUpperCase()}`
        : encodeURIComponent(part),
    )
    .join('');
}

/** A plain value of a JSON Schema property, valid in shape (its content is what other probes vary). */
function sample(schema: Json): unknown {
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (Array.isArray(schema.anyOf)) return sample(schema.anyOf[0] as Json);
  switch (type) {
    case 'integer':
    case 'number':
      return 1;
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'object':
      return {};
    case 'null':
      return null;
    default:
      return schema.format === 'date-time' ? tokyoStart(4, 19) : 'x';
  }
}
