import { expect, test, type APIRequestContext } from '@playwright/test';
import { businessDay, freeAtEight } from '../helpers/free-start';
import { htmlValidateErrors, nuCheckerErrors, type Page } from '../helpers/html-validators';
import { DEMO_STAFF } from '../../src/server/db/seed-data';
import { heldStart, serverWithMail } from '../helpers/held-start';

/**
 * Every product page, as the server sends it, signed out and signed in, is valid HTML: no error from
 * html-validate nor from the W3C Nu HTML Checker. The booking pages are checked at each step (the
 * form, a field error, the confirmation, the booking, the cancel question) through their plain
 * forms, as a browser without JavaScript posts them. So are the store host's sign-in and list pages,
 * and the page of a start held for a watcher (a claimable 空席通知), as its owner opens it.
 */

const BOTH = [
  '/home',
  '/stores',
  '/stores?name=%E7%84%BC%E8%82%89&party=4',
  '/stores?sort=budget&view=map',
  '/areas/1',
  '/store/1',
  '/store/1?party=4&seat=private_room',
  '/booking-list',
  '/watches',
  '/term',
  '/privacy',
  '/ecommerce',
  '/info-contracted-store',
  '/utility/help',
  '/offline?lang=ja',
  '/offline?lang=ar',
  '/no-such-page',
  '/store/999999',
];
const SIGNED_OUT = [
  '/store/1/booking-without',
  '/auth/signin',
  '/auth/signup',
  '/auth/forgot-password',
  '/auth/reset-password',
  '/auth/reset-password?token=not-a-token',
  '/auth/verify?sent=1',
  '/auth/verify?token=not-a-token',
];
const SIGNED_IN = ['/store/1/booking', '/favourite', '/viewed-list', '/account-info', '/user-change-password', '/user-leave-association'];

async function fetchPages(request: APIRequestContext, who: string, paths: string[]): Promise<Page[]> {
  return Promise.all(paths.map(async (path) => ({ name: `${who} ${path}`, html: await (await request.get(path)).text() })));
}

async function post(request: APIRequestContext, who: string, path: string, form: Record<string, string>): Promise<Page> {
  const res = await request.post(path, { form, maxRedirects: 0 });
  return { name: `${who} POST ${path} ${form.intent}`, html: await res.text() };
}

async function expectValid(pages: Page[]) {
  for (const p of pages) expect(p.html.trimEnd(), `${p.name} ends with </html>`).toMatch(/<\/html>$/);
  expect(await htmlValidateErrors(pages)).toEqual([]);
  expect(await nuCheckerErrors(pages)).toEqual([]);
}

test('signed out: every product page is valid HTML', async ({ playwright, baseURL }) => {
  const request = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { 'accept-language': 'ja-JP', origin: baseURL! } });
  const pages = await fetchPages(request, 'signed out', SIGNED_OUT.concat(BOTH));
  const { storeId, start } = await freeAtEight(request, businessDay(6), 8);
  const path = `/store/${storeId}/booking-without`;
  pages.push(...(await fetchPages(request, 'signed out', [`${path}?party=2&start=${encodeURIComponent(start)}`])));
  const contact = { name: '検証 太郎', name_kana: 'ケンショウ タロウ', phone: '090-1234-5678', email: `valid-${Date.now()}@example.jp` };
  const form = { date: businessDay(6), party_size: '2', start, seat_preference: '', note: '', remember: '', ...contact };
  pages.push(await post(request, 'signed out', path, { ...form, intent: 'next', name_kana: 'Kensho' }));
  pages.push(await post(request, 'signed out', path, { ...form, intent: 'next' }));
  // Booking answers with a redirect to the booking's own page (its edit token in a cookie scoped to it).
  const booked = await request.post(path, { form: { ...form, intent: 'book' }, maxRedirects: 0 });
  expect(booked.status()).toBe(303);
  const [done] = await fetchPages(request, 'signed out', [booked.headers().location!]);
  pages.push(done!);
  const edit = done!.html.match(/\/booking-without\/edit\/\d+\?token=[\w-]+/)?.[0];
  expect(edit, 'the guest booking page links to its edit page').toBeTruthy();
  pages.push(...(await fetchPages(request, 'signed out', [`/store/${storeId}${edit!}`])));
  pages.push(await post(request, 'signed out', `/store/${storeId}${edit!.split('?')[0]}`, { ...form, intent: 'ask-cancel' }));
  await expectValid(pages);
  await request.dispose();
});

test('signed in: every product page is valid HTML', async ({ playwright, baseURL }) => {
  const request = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { 'accept-language': 'ja-JP', origin: baseURL! } });
  const signupEmail = `valid-${Date.now()}@example.jp`;
  const signup = await request.post('/api/users', { data: { name: '検証 花子', email: signupEmail, password: 'correct-horse-battery', agree: true } });
  expect(signup.status()).toBe(201);
  // Sign-up signs no one in (the mailed link does); the password just chosen does.
  expect((await request.post('/api/login', { data: { email: signupEmail, password: 'correct-horse-battery' } })).status()).toBe(200);
  const { storeId, start } = await freeAtEight(request, businessDay(6), 9);
  expect((await request.put(`/api/favourites/${storeId}`)).ok()).toBe(true);
  const booked = await request.post('/api/bookings', { data: { store_id: storeId, start, party_size: 2 } });
  expect(booked.status()).toBe(201);
  const { id } = (await booked.json()) as { id: number };
  const pages = await fetchPages(request, 'signed in', [
    ...SIGNED_IN,
    ...BOTH,
    `/store/${storeId}/booking?party=2&start=${encodeURIComponent(start)}`,
    `/store/${storeId}/booking/complete/${id}`,
    `/store/${storeId}/booking/edit/${id}`,
  ]);
  pages.push(
    await post(request, 'signed in', `/store/${storeId}/booking/edit/${id}`, {
      date: businessDay(6),
      party_size: '2',
      start,
      seat_preference: '',
      note: '',
      intent: 'ask-cancel',
    }),
  );
  await expectValid(pages);
  await request.dispose();
});

/** The store host's list pages: its ledger (with a booking's change and cancel forms open), seats, stores and fees. */
const STORE_LISTS = ['/list-booking-manage', '/list-seat-manage', '/list-store-manage', '/list-payment-manage'];

test('the store host: its sign-in and, signed in as staff, every list page is valid HTML', async ({ playwright, baseURL }) => {
  // Node does not resolve *.localhost as browsers do: the store host is asked at the loopback address, by its name.
  const storeHost = `http://store.localhost:${new URL(baseURL!).port}`;
  const request = await playwright.request.newContext({
    baseURL,
    extraHTTPHeaders: { 'accept-language': 'ja-JP', host: new URL(storeHost).host, origin: storeHost },
  });
  const pages = await fetchPages(request, 'store host, signed out', ['/store-signin', '/admin-signin']);
  const signedIn = await request.post('/store-signin', { form: { email: DEMO_STAFF.email, password: DEMO_STAFF.password }, maxRedirects: 0 });
  expect(signedIn.status()).toBe(303);
  // A phone booking three days ahead at the staff's store, for its change and cancel forms.
  const day = businessDay(3);
  const { store_id: storeId } = (await (await request.get('/api/store/tables')).json()) as { store_id: number };
  const diner = await playwright.request.newContext({ baseURL });
  const { slots } = (await (await diner.get(`/api/stores/${storeId}/availability?date=${day}&party=2`)).json()) as {
    slots: { start: string; free_tables: number }[];
  };
  await diner.dispose();
  const free = slots.find((x) => x.free_tables > 0);
  expect(free, `the demo store has a free start on ${day}`).toBeDefined();
  const made = await request.post('/api/store/bookings', {
    data: { store_id: storeId, start: free!.start, party_size: 2, name: '検証 次郎', name_kana: 'ケンショウ ジロウ', phone: '090-8765-4321' },
  });
  expect(made.status()).toBe(201);
  const open = (await made.json()) as { id: number };
  for (const path of [...STORE_LISTS, `/list-booking-manage?date=${day}&change=${open.id}`, `/list-booking-manage?date=${day}&cancel=${open.id}`]) {
    const res = await request.get(path, { maxRedirects: 0 });
    // The page itself, not a redirect to the sign-in nor an error page.
    expect([path, res.status()]).toEqual([path, 200]);
    pages.push({ name: `store host, staff ${path}`, html: await res.text() });
  }
  await expectValid(pages);
  await request.dispose();
});

test.describe('the hold page', () => {
  // A start is held only for a confirmed address: this test's own server mails through a real SMTP server.
  const own = serverWithMail();

  test('a start held for a watcher: its page, as its owner sees it with the claim form, is valid HTML', async ({ playwright }) => {
    test.setTimeout(180_000);
    const request = await playwright.request.newContext({ baseURL: own.base, extraHTTPHeaders: { 'accept-language': 'ja-JP', origin: own.base } });
    const { path } = await heldStart(request, own.base, own.smtp);
    const res = await request.get(path);
    expect(res.status()).toBe(200);
    const html = await res.text();
    expect(html).toContain('data-testid="hold-claim"');
    await expectValid([{ name: `watcher ${path}`, html }]);
    await request.dispose();
  });
});
