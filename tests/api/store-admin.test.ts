/**
 * The platform admin and invitations (issue #25, screens 1 and 5): only an admin opens a company
 * with its store and its owner's invitation (all or nothing, audited); the invitation is a real mail
 * (through a real SMTP server) whose link signs the owner up once; a link used, expired or unknown is
 * refused; the owner invites further staff, other staff may not; the sign-in forms keep admins and
 * staff apart.
 */
import { describe, expect, it, beforeAll, afterAll } from 'vitest';
import { invitations, tenants, users } from '../../src/server/db/schema';
import { hashPassword } from '../../src/server/passwords';
import { hashToken } from '../../src/server/sessions';
import { adminStoreJsonSchema, invitationJsonSchema } from '../../src/lib/contract/admin';
import { loginAnswerSchema } from '../../src/lib/contract/staff';
import { rawRequest } from '../helpers/raw';
import { startSmtp, type TestSmtp } from '../helpers/smtp';
import type { App } from '../helpers/app';
import { bearer, staffLogin, startWithStaff, STORE_HOST, type StaffFixture } from './store-fixtures';
import type { Fixture } from './booking-fixtures';

const ADMIN = { email: 'admin-test@example.jp', password: 'admin-pass-for-tests' };
/** Links written straight into the fixture: one out of date, one already used. */
const EXPIRED_TOKEN = 'expired-invitation-token-for-the-test-0123456789';
const USED_TOKEN = 'used-invitation-token-for-the-test-0123456789abc';

type Envelope = { error: { code: string; message: string; fields?: Record<string, string> } };

let areaId = 0;
const newStore = (ownerEmail: string, over: Record<string, unknown> = {}) => ({
  company_name: '株式会社テスト飯店',
  store_name: 'テスト飯店 渋谷店',
  name_kana: 'てすとはんてん',
  genre: 'chinese',
  area_id: areaId,
  address: '東京都渋谷区道玄坂2-1-1',
  station: '渋谷',
  walk_minutes: 4,
  phone: '03-1234-5678',
  budget_min: 2000,
  budget_max: 4000,
  lat: 35.6585,
  lng: 139.6982,
  owner_email: ownerEmail,
  ...over,
});

/** The sign-up link in an invitation mail, and its token. */
function linkIn(text: string): { link: string; token: string } {
  const link = new RegExp(`${STORE_HOST.replace(/\./g, '\\.')}/store-signup\\?token=([\\w-]+)`).exec(text);
  if (!link) throw new Error(`no sign-up link in: ${text}`);
  return { link: link[0], token: link[1]! };
}

for (const engine of ['pglite', 'postgres'] as const) {
  describe(`platform admin and invitations [${engine}]`, () => {
    let app: App;
    let fx: Fixture & StaffFixture;
    let smtp: TestSmtp;
    let adminToken: string;
    let cleanup: (() => Promise<void>) | undefined;
    const json = (path: string, body: unknown, token?: string) =>
      app.fetch(path, { method: 'POST', json: body, headers: token ? bearer(token) : { 'accept-language': 'en' } });
    /** A page of the store host, as the browser behind `token` asks for it. */
    const storePage = (path: string, token: string) =>
      rawRequest(app, { path, headers: { host: new URL(STORE_HOST).host, authorization: `Bearer ${token}`, 'accept-language': 'ja' } });

    beforeAll(async () => {
      smtp = await startSmtp();
      const started = await startWithStaff(engine, { SMTP_URL: smtp.url }, async (db) => {
        const [admin] = await db
          .insert(users)
          .values({ email: ADMIN.email, passwordHash: await hashPassword(ADMIN.password), name: '運営 テスト', role: 'admin' })
          .returning({ id: users.id });
        const [tenant] = await db.insert(tenants).values({ slug: 'old-invites', name: '古い招待' }).returning({ id: tenants.id });
        const tenantId = tenant!.id;
        const day = 24 * 60 * 60_000;
        await db.insert(invitations).values([
          {
            tokenHash: hashToken(EXPIRED_TOKEN),
            tenantId,
            storeIds: [],
            role: 'staff',
            email: 'late@example.jp',
            createdBy: admin!.id,
            expiresAt: new Date(Date.now() - day),
          },
          {
            tokenHash: hashToken(USED_TOKEN),
            tenantId,
            storeIds: [],
            role: 'staff',
            email: 'again@example.jp',
            createdBy: admin!.id,
            expiresAt: new Date(Date.now() + day),
            usedAt: new Date(),
          },
        ]);
      });
      app = started.app;
      fx = started.fx;
      cleanup = started.cleanup;
      adminToken = (await staffLogin(app, { ...ADMIN, tenant: '', storeId: 0 })).token;
      areaId = ((await (await app.fetch('/api/areas')).json()) as { id: number }[])[0]!.id;
    });
    afterAll(async () => {
      await cleanup?.();
      await smtp?.close();
    });

    it('lets only the admin open a store: a guest 401, a diner and store staff 403; admin and store pages kept apart', async () => {
      const tokenA = (await staffLogin(app, fx.staffA)).token;
      const guest = await json('/api/admin/stores', newStore('nobody-guest@example.jp'));
      expect(guest.status).toBe(401);
      for (const token of [fx.users[0]!.token, tokenA]) {
        const res = await json('/api/admin/stores', newStore('nobody@example.jp'), token);
        expect(res.status).toBe(403);
        expect(((await res.json()) as Envelope).error.code).toBe('forbidden');
      }
      // The admin's session opens no store page; the staff's opens no admin page.
      expect((await storePage('/list-booking-manage', adminToken)).headers.location).toBe('/admin-create-store');
      expect((await storePage('/admin-create-store', tokenA)).status).toBe(404);
      expect((await storePage('/admin-create-store', adminToken)).status).toBe(200);
    });

    it('refuses a bad store with each field named, in the language asked for', async () => {
      const res = await json('/api/admin/stores', newStore('not-an-address', { name_kana: 'Tanaka', walk_minutes: 'far' }), adminToken);
      expect(res.status).toBe(400);
      const { fields } = ((await res.json()) as Envelope).error;
      expect(Object.keys(fields ?? {}).sort()).toEqual(['name_kana', 'owner_email', 'walk_minutes']);
      expect(fields!.owner_email).toMatch(/e-?mail/i);
      // A budget whose top is below its bottom.
      const budget = await json('/api/admin/stores', newStore('budget@example.jp', { budget_min: 5000, budget_max: 1000 }), adminToken);
      expect(budget.status).toBe(400);
      expect(Object.keys(((await budget.json()) as Envelope).error.fields ?? {})).toEqual(['budget_max']);
      // An area Sugu does not have: the field says so.
      const area = await json('/api/admin/stores', newStore('area@example.jp', { area_id: 999_999 }), adminToken);
      expect(area.status).toBe(400);
      expect(((await area.json()) as Envelope).error.fields).toHaveProperty('area_id');
    });

    it('opens a company, its store and mails the owner a link that signs up once, onto the new store', async () => {
      const owner = `owner-${engine}@example.jp`;
      const res = await json('/api/admin/stores', newStore(owner.toUpperCase()), adminToken);
      expect(res.status).toBe(201);
      const made = adminStoreJsonSchema.parse(await res.json());
      expect(made.invitation).toMatchObject({ email: owner, role: 'owner', store_ids: [made.store_id] });
      const [mail] = await smtp.waitFor(1, 60_000, owner);
      expect(mail!.subject).toContain('株式会社テスト飯店');
      const { token } = linkIn(mail!.parsed.text ?? '');
      // The page behind the link asks for the owner's details.
      const page = await rawRequest(app, { path: `/store-signup?token=${token}`, headers: { host: new URL(STORE_HOST).host, 'accept-language': 'ja' } });
      expect(page.status).toBe(200);
      expect(page.body).toContain(owner);
      // Password rules as at any sign-up: too short, and a common one.
      for (const password of ['short', 'password123']) {
        const weak = await json('/api/store/signup', { token, name: '飯田 太郎', name_kana: 'イイダ タロウ', password });
        expect(weak.status).toBe(400);
        expect(((await weak.json()) as Envelope).error.fields).toHaveProperty('password');
      }
      const signup = await json('/api/store/signup', { token, name: '飯田 太郎', name_kana: 'いいだ たろう', password: 'a-good-long-password' });
      expect(signup.status).toBe(201);
      const answer = loginAnswerSchema.parse(await signup.json());
      expect(answer).toMatchObject({ tenant: made.tenant, store_id: made.store_id, store_ids: [made.store_id] });
      // The new owner works the new store through the store API.
      const tables = await app.fetch(`/api/store/tables?store_id=${made.store_id}`, { headers: bearer(answer.token) });
      expect(tables.status).toBe(200);
      // Once only.
      const again = await json('/api/store/signup', { token, name: '別人', name_kana: 'ベツジン', password: 'another-long-password' });
      expect(again.status).toBe(400);
      expect(((await again.json()) as Envelope).error.code).toBe('invalid_link');
      // The owner invites a member of staff, who signs up to the same store.
      const staffMail = `staff-${engine}@example.jp`;
      const invited = await json('/api/store/invitations', { email: staffMail }, answer.token);
      expect(invited.status).toBe(201);
      expect(invitationJsonSchema.parse(await invited.json())).toMatchObject({ role: 'staff', store_ids: [made.store_id] });
      const [staffInvite] = await smtp.waitFor(1, 60_000, staffMail);
      const joined = await json('/api/store/signup', {
        token: linkIn(staffInvite!.parsed.text ?? '').token,
        name: '店員 花子',
        name_kana: 'テンイン ハナコ',
        password: 'staff-long-password',
      });
      expect(joined.status).toBe(201);
      const staff = loginAnswerSchema.parse(await joined.json());
      // Staff that are not the owner may not invite.
      const refused = await json('/api/store/invitations', { email: 'more@example.jp' }, staff.token);
      expect(refused.status).toBe(403);
      // Each invitation is a mail: one address gets at most five an hour.
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await json('/api/store/invitations', { email: `flood-${engine}@example.jp` }, answer.token)).status);
      expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
    });

    it('refuses a link that is unknown, used or out of date, on the page and through the API', async () => {
      // An out-of-date link says so (a new invitation is the way on); the others are only invalid.
      for (const [token, says] of [
        ['not-a-real-token', 'この招待リンクは無効です'],
        [USED_TOKEN, 'この招待リンクは無効です'],
        [EXPIRED_TOKEN, 'この招待リンクは有効期限が切れています'],
      ]) {
        const res = await json('/api/store/signup', { token, name: '誰か', name_kana: 'ダレカ', password: 'a-good-long-password' });
        expect([token, res.status]).toEqual([token, 400]);
        expect(((await res.json()) as Envelope).error.code).toBe('invalid_link');
        const page = await rawRequest(app, { path: `/store-signup?token=${token}`, headers: { host: new URL(STORE_HOST).host, 'accept-language': 'ja' } });
        expect(page.status).toBe(400);
        expect(page.body).toContain(says);
      }
    });

    it('keeps the sign-in forms apart: staff at /admin-signin and the admin at /store-signin are refused', async () => {
      const host = new URL(STORE_HOST).host;
      const post = (path: string, email: string, password: string) => {
        const body = new URLSearchParams({ email, password }).toString();
        return rawRequest(app, {
          method: 'POST',
          path,
          headers: {
            host,
            origin: STORE_HOST,
            'content-type': 'application/x-www-form-urlencoded',
            'content-length': String(Buffer.byteLength(body)),
            'accept-language': 'ja',
          },
          body,
        });
      };
      expect((await post('/admin-signin', fx.staffA.email, fx.staffA.password)).status).toBe(403);
      expect((await post('/store-signin', ADMIN.email, ADMIN.password)).status).toBe(403);
      const admin = await post('/admin-signin', ADMIN.email, ADMIN.password);
      expect(admin.status).toBe(303);
      expect(admin.headers.location).toBe('/admin-create-store');
      const staff = await post('/store-signin', fx.staffA.email, fx.staffA.password);
      expect(staff.status).toBe(303);
      expect(staff.headers.location).toBe('/list-booking-manage');
    });
  });
}
