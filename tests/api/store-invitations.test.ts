/**
 * What the admin and an owner can see of the invitations they sent, and withdrawing one (issue #25,
 * screens 1 and 5): the owner lists its company's pending invitations, the admin every company with
 * its stores and pending invitations; each withdraws, through the JSON API and the plain forms, by
 * the same service; another company's invitation is 404 and stays; a withdrawn or out-of-date link
 * then refuses sign-up saying which. The role matrix: admin, owner, another company's owner, plain
 * staff, diner and guest. An admin opening a store's screen is sent to its own.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invitations, staffStores, stores, tenants, users } from '../../src/server/db/schema';
import type { Db } from '../../src/server/db/types';
import { hashPassword } from '../../src/server/passwords';
import { hashToken } from '../../src/server/sessions';
import { adminTenantListSchema, invitationListSchema } from '../../src/lib/contract/admin';
import { PAGE_SIZE, PAGE_SIZE_MAX } from '../../src/lib/contract/limits';
import { eq } from 'drizzle-orm';
import { openAppDb, type App } from '../helpers/app';
import { rawRequest } from '../helpers/raw';
import { startWithFixture, type Fixture } from './booking-fixtures';
import { bearer, STORE_HOST } from './store-fixtures';

type Json = Record<string, any>;
type Account = { email: string; password: string };

const DAY = 24 * 60 * 60_000;
const token = (label: string) => `${label}-invitation-token-${'x'.repeat(40)}`.slice(0, 48);
/** Links written into the fixture, so the test holds what a mail would carry. */
const LINKS = {
  a1: token('a1'),
  a2: token('a2'),
  a3: token('a3'),
  b1: token('b1'),
  b2: token('b2'),
  expired: token('expired'),
};

interface Accounts {
  admin: Account;
  ownerA: Account;
  staffA: Account;
  ownerB: Account;
  tenantA: string;
  tenantB: string;
  storeA: number;
  storeB: number;
}

/** Two companies (A with the 24-hour store, B with the one-table bar), each with an owner, A with a plain member of staff, and the admin; their pending invitations and one out of date. */
async function companies(db: Db, fx: Fixture): Promise<Accounts> {
  const password = `pw-${crypto.randomBytes(8).toString('hex')}`;
  const suffix = crypto.randomBytes(3).toString('hex');
  const [admin] = await db
    .insert(users)
    .values({ email: `admin-${suffix}@example.jp`, passwordHash: await hashPassword(password), name: '運営', role: 'admin' })
    .returning({ id: users.id, email: users.email });
  const company = async (label: string, storeId: number, staff: { label: string; owner: boolean }[]) => {
    const slug = `${label}-${suffix}`;
    const [t] = await db
      .insert(tenants)
      .values({ slug, name: `会社 ${label}` })
      .returning({ id: tenants.id });
    await db.update(stores).set({ tenantId: t!.id }).where(eq(stores.id, storeId));
    const made: Account[] = [];
    for (const s of staff) {
      const email = `${s.label}-${suffix}@example.jp`;
      const [u] = await db
        .insert(users)
        .values({ email, passwordHash: await hashPassword(password), name: s.label, role: 'staff', tenantId: t!.id, owner: s.owner })
        .returning({ id: users.id });
      await db.insert(staffStores).values({ userId: u!.id, storeId, tenantId: t!.id });
      made.push({ email, password });
    }
    return { id: t!.id, slug, made };
  };
  // Older companies without stores, more than one page of the admin's list holds.
  await db.insert(tenants).values(
    Array.from({ length: PAGE_SIZE + 1 }, (_, i) => ({
      slug: `older-${i}-${suffix}`,
      name: `古い会社 ${i}`,
      createdAt: new Date(Date.now() - (i + 1) * DAY),
    })),
  );
  const a = await company('a', fx.storeId, [
    { label: 'owner-a', owner: true },
    { label: 'staff-a', owner: false },
  ]);
  const b = await company('b', fx.tinyStoreId, [{ label: 'owner-b', owner: true }]);
  const invite = (link: string, tenantId: number, storeId: number, email: string, expiresIn = 7 * DAY) => ({
    tokenHash: hashToken(link),
    tenantId,
    storeIds: [storeId],
    role: 'staff' as const,
    email,
    createdBy: admin!.id,
    expiresAt: new Date(Date.now() + expiresIn),
  });
  await db
    .insert(invitations)
    .values([
      invite(LINKS.a1, a.id, fx.storeId, 'a1@example.jp', 3 * DAY),
      invite(LINKS.a2, a.id, fx.storeId, 'a2@example.jp', 5 * DAY),
      invite(LINKS.a3, a.id, fx.storeId, 'a3@example.jp'),
      invite(LINKS.b1, b.id, fx.tinyStoreId, 'b1@example.jp'),
      invite(LINKS.b2, b.id, fx.tinyStoreId, 'b2@example.jp'),
      invite(LINKS.expired, a.id, fx.storeId, 'late@example.jp', -DAY),
    ]);
  return {
    admin: { email: admin!.email, password },
    ownerA: a.made[0]!,
    staffA: a.made[1]!,
    ownerB: b.made[0]!,
    tenantA: a.slug,
    tenantB: b.slug,
    storeA: fx.storeId,
    storeB: fx.tinyStoreId,
  };
}

for (const engine of ['pglite', 'postgres'] as const) {
  describe(`pending invitations: listed and withdrawn [${engine}]`, () => {
    let app: App;
    let fx: Fixture & Accounts;
    let cleanup: (() => Promise<void>) | undefined;
    const tokens = {} as Record<'admin' | 'ownerA' | 'staffA' | 'ownerB' | 'diner', string>;
    const host = new URL(STORE_HOST).host;

    const login = async (account: Account) => {
      const res = await app.fetch('/api/login', { method: 'POST', json: account });
      expect(res.status).toBe(200);
      return ((await res.json()) as { token: string }).token;
    };
    const call = (method: string, path: string, who?: string, lang = 'en') =>
      app.fetch(path, { method, headers: who ? { ...bearer(who), 'accept-language': lang } : { 'accept-language': lang } });
    const ownerList = async (who: string) => invitationListSchema.parse(await (await call('GET', '/api/store/invitations', who)).json()).items;
    const overview = async () => adminTenantListSchema.parse(await (await call('GET', '/api/admin/tenants', tokens.admin)).json()).items;
    /** The id of the pending invitation sent to `email`, as the admin's list shows it. */
    const idOf = async (email: string) => {
      const found = (await overview()).flatMap((c) => c.invitations).find((i) => i.email === email);
      if (!found) throw new Error(`no pending invitation to ${email}`);
      return found.id;
    };
    const signup = (link: string, lang: string) =>
      app.fetch('/api/store/signup', {
        method: 'POST',
        json: { token: link, name: '新人 太郎', name_kana: 'シンジン タロウ', password: 'a-good-long-password' },
        headers: { 'accept-language': lang },
      });
    /** A plain form posted to a store-host page by the browser behind `who`. */
    const postForm = (path: string, who: string, fields: Record<string, string>) => {
      const body = new URLSearchParams(fields).toString();
      return rawRequest(app, {
        method: 'POST',
        path,
        headers: {
          host,
          origin: STORE_HOST,
          authorization: `Bearer ${who}`,
          'content-type': 'application/x-www-form-urlencoded',
          'content-length': String(Buffer.byteLength(body)),
          'accept-language': 'ja',
        },
        body,
      });
    };
    const page = (path: string, who?: string) =>
      rawRequest(app, { path, headers: { host, 'accept-language': 'ja', ...(who ? { authorization: `Bearer ${who}` } : {}) } });

    beforeAll(async () => {
      const started = await startWithFixture(engine, { STORE_HOST }, companies);
      app = started.app;
      fx = started.fx;
      cleanup = started.cleanup;
      tokens.admin = await login(fx.admin);
      tokens.ownerA = await login(fx.ownerA);
      tokens.staffA = await login(fx.staffA);
      tokens.ownerB = await login(fx.ownerB);
      tokens.diner = fx.users[0]!.token;
    });
    afterAll(() => cleanup?.());

    it("lists the owner's company's pending invitations to its owner alone, soonest to expire first", async () => {
      expect((await call('GET', '/api/store/invitations')).status).toBe(401);
      for (const who of [tokens.diner, tokens.admin, tokens.staffA]) {
        const res = await call('GET', '/api/store/invitations', who);
        expect(res.status).toBe(403);
        expect(((await res.json()) as Json).error.code).toBe('forbidden');
      }
      const listA = await ownerList(tokens.ownerA);
      // Neither B's nor the out-of-date one.
      expect(listA.map((i) => i.email)).toEqual(['a1@example.jp', 'a2@example.jp', 'a3@example.jp']);
      expect(listA.every((i) => i.tenant === fx.tenantA && Date.parse(i.expires_at) > Date.now())).toBe(true);
      expect((await ownerList(tokens.ownerB)).map((i) => i.email)).toEqual(['b1@example.jp', 'b2@example.jp']);
    });

    it('lists every company with its stores and pending invitations to the admin alone', async () => {
      expect((await call('GET', '/api/admin/tenants')).status).toBe(401);
      for (const who of [tokens.diner, tokens.ownerA, tokens.staffA]) expect((await call('GET', '/api/admin/tenants', who)).status).toBe(403);
      const items = await overview();
      const a = items.find((c) => c.tenant === fx.tenantA);
      const b = items.find((c) => c.tenant === fx.tenantB);
      expect(a).toMatchObject({ name: '会社 a', stores: [{ id: fx.storeA }] });
      expect(a!.invitations.map((i) => i.email)).toEqual(['a1@example.jp', 'a2@example.jp', 'a3@example.jp']);
      expect(b!.invitations.map((i) => i.email)).toEqual(['b1@example.jp', 'b2@example.jp']);
    });

    it('pages the companies as the store listing pages: newest first, `page` and `per_page`, the total beside; a bad page refused with its field named', async () => {
      const list = async (query: string) => {
        const res = await call('GET', `/api/admin/tenants${query}`, tokens.admin);
        expect([query, res.status]).toEqual([query, 200]);
        return adminTenantListSchema.parse(await res.json());
      };
      const all = await list(`?per_page=${PAGE_SIZE_MAX}`);
      expect(all.total).toBeGreaterThan(PAGE_SIZE);
      expect(all.items).toHaveLength(Math.min(all.total, PAGE_SIZE_MAX));
      expect(all.items.slice(0, 2).map((c) => c.tenant)).toEqual([fx.tenantB, fx.tenantA]);
      const first = await list('');
      expect(first).toMatchObject({ page: 1, per_page: PAGE_SIZE, total: all.total });
      expect(first.items.map((c) => c.tenant)).toEqual(all.items.slice(0, PAGE_SIZE).map((c) => c.tenant));
      const second = await list('?page=2');
      expect(second).toMatchObject({ page: 2, per_page: PAGE_SIZE, total: all.total });
      expect(second.items.map((c) => c.tenant)).toEqual(all.items.slice(PAGE_SIZE, 2 * PAGE_SIZE).map((c) => c.tenant));
      expect((await list(`?page=${all.total + 1}&per_page=1`)).items).toEqual([]);
      for (const [query, field] of [
        ['?page=0', 'page'],
        ['?page=abc', 'page'],
        [`?per_page=${PAGE_SIZE_MAX + 1}`, 'per_page'],
        ['?per_page=0', 'per_page'],
      ] as const) {
        const res = await call('GET', `/api/admin/tenants${query}`, tokens.admin, 'ja');
        expect([query, res.status]).toEqual([query, 400]);
        expect(Object.keys(((await res.json()) as Json).error.fields)).toEqual([field]);
      }

      // The admin's screen: a page of companies at a time, with the way to the next.
      const screen = await page('/admin-create-store', tokens.admin);
      expect(screen.status).toBe(200);
      expect(screen.body.match(/data-tenant="/g)).toHaveLength(PAGE_SIZE);
      expect(screen.body).toContain(`href="/admin-create-store?page=2#tenants-title"`);
      const next = await page('/admin-create-store?page=2', tokens.admin);
      expect(next.body.match(/data-tenant="/g)).toHaveLength(Math.min(all.total - PAGE_SIZE, PAGE_SIZE));
      expect(next.body).toContain(`data-tenant="${second.items[0]!.tenant}"`);
      expect(next.body).not.toContain(`data-tenant="${fx.tenantA}"`);
    });

    it("lets the owner withdraw its own company's invitation only; the link then refuses sign-up, saying so", async () => {
      const a1 = await idOf('a1@example.jp');
      expect((await call('DELETE', `/api/store/invitations/${a1}`)).status).toBe(401);
      // Another company's owner: as if it did not exist.
      for (const [who, status] of [
        ['diner', 403],
        ['admin', 403],
        ['staffA', 403],
        ['ownerB', 404],
      ] as const) {
        expect([who, (await call('DELETE', `/api/store/invitations/${a1}`, tokens[who])).status]).toEqual([who, status]);
      }
      // Still pending after all of those.
      expect((await ownerList(tokens.ownerA)).map((i) => i.id)).toContain(a1);
      expect((await call('DELETE', '/api/store/invitations/abc', tokens.ownerA)).status).toBe(404);
      expect((await call('DELETE', `/api/store/invitations/${a1}`, tokens.ownerA)).status).toBe(204);
      expect((await ownerList(tokens.ownerA)).map((i) => i.email)).toEqual(['a2@example.jp', 'a3@example.jp']);
      // Once: it is no longer pending.
      expect((await call('DELETE', `/api/store/invitations/${a1}`, tokens.ownerA)).status).toBe(404);

      const refused = await signup(LINKS.a1, 'ja');
      expect(refused.status).toBe(400);
      const error = ((await refused.json()) as Json).error;
      expect(error.code).toBe('invalid_link');
      expect(error.message).toContain('取り消されました');
      expect(((await (await signup(LINKS.a1, 'en')).json()) as Json).error.message).toContain('withdrawn');
      const shown = await page(`/store-signup?token=${LINKS.a1}`);
      expect(shown.status).toBe(400);
      expect(shown.body).toContain('この招待は取り消されました');
      expect(shown.body).not.toContain('name="password"');

      if (engine === 'postgres') {
        const h = await openAppDb(app);
        try {
          const rows = await h.sql<
            { action: string; actor_email: string; before: Json; after: Json }[]
          >`select action, actor_email, before, after from staff_audit where action = 'invitation_revoke' and target_id = ${a1}`;
          expect(rows).toHaveLength(1);
          expect(rows[0]).toMatchObject({
            actor_email: fx.ownerA.email,
            before: { email: 'a1@example.jp', revoked_at: null },
            after: { revoked_at: expect.any(String) },
          });
        } finally {
          await h.close();
        }
      }
    });

    it("lets the admin withdraw any company's invitation, and no one else through the admin's call", async () => {
      const b1 = await idOf('b1@example.jp');
      expect((await call('DELETE', `/api/admin/invitations/${b1}`)).status).toBe(401);
      for (const who of [tokens.diner, tokens.ownerA, tokens.ownerB, tokens.staffA])
        expect((await call('DELETE', `/api/admin/invitations/${b1}`, who)).status).toBe(403);
      expect((await ownerList(tokens.ownerB)).map((i) => i.id)).toContain(b1);
      expect((await call('DELETE', `/api/admin/invitations/${b1}`, tokens.admin)).status).toBe(204);
      expect((await call('DELETE', `/api/admin/invitations/${b1}`, tokens.admin)).status).toBe(404);
      expect((await call('DELETE', '/api/admin/invitations/999999', tokens.admin)).status).toBe(404);
      expect((await ownerList(tokens.ownerB)).map((i) => i.email)).toEqual(['b2@example.jp']);
      expect(((await (await signup(LINKS.b1, 'ja')).json()) as Json).error.message).toContain('取り消されました');
    });

    it('says an out-of-date link has expired, and takes up a pending one', async () => {
      const expired = await signup(LINKS.expired, 'ja');
      expect(expired.status).toBe(400);
      expect(((await expired.json()) as Json).error.message).toContain('有効期限が切れています');
      expect((await page(`/store-signup?token=${LINKS.expired}`)).body).toContain('有効期限が切れています');
      // A link nobody withdrew still works, and is then no longer pending.
      expect((await signup(LINKS.a3, 'ja')).status).toBe(201);
      expect((await ownerList(tokens.ownerA)).map((i) => i.email)).not.toContain('a3@example.jp');
      expect(((await (await signup(LINKS.a3, 'ja')).json()) as Json).error.message).toContain('この招待リンクは無効です');
    });

    it('withdraws through the plain forms of /list-store-manage and /admin-create-store, by the same rules', async () => {
      const a2 = await idOf('a2@example.jp');
      const b2 = await idOf('b2@example.jp');
      // The owner's page lists its pending invitations with a withdraw button each.
      const listed = await page('/list-store-manage', tokens.ownerA);
      expect(listed.status).toBe(200);
      expect(listed.body).toContain('a2@example.jp');
      expect(listed.body).not.toContain('b2@example.jp');
      // Another company's invitation through A's owner's form: not found, and it stays.
      const foreign = await postForm('/list-store-manage', tokens.ownerA, { action: 'revoke', invitation: String(b2) });
      expect(foreign.status).toBe(404);
      expect(foreign.body).toContain('見つかりませんでした');
      // Plain staff get no list and may not withdraw.
      expect((await page('/list-store-manage', tokens.staffA)).body).not.toContain('a2@example.jp');
      expect((await postForm('/list-store-manage', tokens.staffA, { action: 'revoke', invitation: String(a2) })).status).toBe(403);
      const done = await postForm('/list-store-manage', tokens.ownerA, { action: 'revoke', invitation: String(a2) });
      expect([done.status, done.headers.location]).toEqual([303, '/list-store-manage']);
      expect((await ownerList(tokens.ownerA)).map((i) => i.email)).toEqual([]);

      // The admin's screen shows the companies, their stores and what is pending.
      const adminPage = await page('/admin-create-store', tokens.admin);
      expect(adminPage.status).toBe(200);
      expect(adminPage.body).toContain('会社 b');
      expect(adminPage.body).toContain('b2@example.jp');
      expect((await postForm('/admin-create-store', tokens.admin, { action: 'revoke', invitation: 'nope' })).status).toBe(404);
      const byAdmin = await postForm('/admin-create-store', tokens.admin, { action: 'revoke', invitation: String(b2) });
      expect([byAdmin.status, byAdmin.headers.location]).toEqual([303, '/admin-create-store#tenants-title']);
      expect(await ownerList(tokens.ownerB)).toEqual([]);
      // Staff posting to the admin's page get its not-found page.
      expect((await postForm('/admin-create-store', tokens.ownerA, { action: 'revoke', invitation: String(b2) })).status).toBe(404);
    });

    it("sends the admin from any store's screen to its own", async () => {
      for (const path of [
        '/list-seat-manage',
        '/list-store-manage',
        '/detail-store-manage',
        '/list-payment-manage',
        '/campaign-banner',
        `/edit-seat/1`,
        '/payment-detail/1',
        '/',
      ]) {
        const res = await page(path, tokens.admin);
        expect([path, res.status, res.headers.location]).toEqual([path, 302, '/admin-create-store']);
      }
      // Staff are not sent anywhere: their screens open.
      expect((await page('/list-seat-manage', tokens.ownerA)).status).toBe(200);
    });
  });
}
