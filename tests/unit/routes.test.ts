import { describe, expect, it } from 'vitest';
import { activeTab, decideRoute, decideStoreRoute, isGuarded, isStoreHostPath, isStoreSiteFolder, safeNext, TABS } from '../../src/lib/routes';

const host = 'https://store.example.jp';
const go = (pathname: string, signedIn = false, search = '') => decideRoute({ pathname, search, signedIn, storeHost: host });

describe('navigation rules (spec sections 2 and 6)', () => {
  it('sends / to /home', () => {
    expect(go('/')).toEqual({ redirect: '/home', status: 302 });
  });

  it.each(['/account-info', '/viewed-list', '/favourite', '/store/12/booking', '/store/12/booking/edit/5', '/user-change-password', '/user-leave-association'])(
    'guards %s, keeping where the guest was going',
    (path) => {
      expect(isGuarded(path)).toBe(true);
      expect(go(path, false, '?x=1')).toEqual({ redirect: `/auth/signin?next=${encodeURIComponent(`${path}?x=1`)}`, status: 302 });
      expect(go(path, true)).toBeNull();
    },
  );

  it.each(['/booking-list', '/home', '/stores', '/store/3', '/areas/2', '/store/3/booking-without', '/store/3/booking-without/edit/9', '/term'])(
    'lets a guest open %s',
    (path) => expect(go(path)).toBeNull(),
  );

  it.each(['/auth/signin', '/auth/signup', '/auth/forgot-password', '/auth/reset-password'])('sends a signed-in user from %s to /home', (path) => {
    expect(go(path, true)).toEqual({ redirect: '/home', status: 302 });
    expect(go(path, false)).toBeNull();
  });

  it.each([
    '/list-booking-manage',
    '/detail-store-manage',
    '/list-seat-manage',
    '/list-payment-manage',
    '/list-store-manage',
    '/admin-create-store',
    '/campaign-banner',
    '/store-signin',
    '/store-signup',
    '/admin-signin',
    '/edit-seat/12',
    '/payment/3',
    '/card-payment/44',
    '/edit-store/7',
    '/payment-detail/100',
  ])('sends %s to the store host with path and query', (path) => {
    expect(go(path, false, '?a=1&b=2')).toEqual({ redirect: `${host}${path}?a=1&b=2`, status: 302 });
  });

  it('redirects only numeric ids to the store host', () => {
    expect(isStoreHostPath('/edit-seat/abc')).toBe(false);
    expect(isStoreHostPath('/payment/1/extra')).toBe(false);
    expect(go('/edit-store/x')).toBeNull();
  });

  it('never lets next= leave the site', () => {
    expect(safeNext('/account-info?tab=1')).toBe('/account-info?tab=1');
    expect(safeNext('//evil.example/x')).toBe('/home');
    expect(safeNext('https://evil.example')).toBe('/home');
    expect(safeNext('/\\evil.example')).toBe('/home');
    expect(safeNext(undefined)).toBe('/home');
  });

  it.each([
    // Normalisation: the checked text and the Location a browser reads must be the same place.
    ['/.//evil.example', '/home'],
    ['/..//evil.example', '/home'],
    ['/%2e%2e//evil.example', '/home'],
    ['/./\\evil.example', '/home'],
    // Backslashes are slashes to a browser.
    ['/\\/evil.example', '/home'],
    ['\\\\evil.example', '/home'],
    // Tabs and newlines are dropped from URLs by browsers.
    ['/\t/evil.example', '/home'],
    ['/\n/evil.example', '/home'],
    [' //evil.example', '/home'],
    // Absolute URLs, schemes, even the site's own: only paths are taken.
    ['http:evil.example', '/home'],
    ['HTTPS://evil.example', '/home'],
    ['javascript:alert(1)', '/home'],
    ['http://localhost:4321/home', '/home'],
    // Encoded slashes stay encoded: a path on the site, not a host.
    ['/%2F%2Fevil.example', '/%2F%2Fevil.example'],
    ['/%5Cevil.example', '/%5Cevil.example'],
    // Ordinary paths come back normalised, query and fragment kept.
    ['/store/12?party=4#slots', '/store/12?party=4#slots'],
    ['/a/../favourite', '/favourite'],
    ['/home?next=//evil.example', '/home?next=//evil.example'],
    ['', '/home'],
    [`/${'a'.repeat(3000)}`, '/home'],
  ])('resolves %j to %j', (next, expected) => {
    expect(safeNext(next)).toBe(expected);
    // Whatever comes back, read as a Location from the site, stays on the site.
    expect(new URL(safeNext(next), 'https://sugu.example/auth/signin').origin).toBe('https://sugu.example');
  });

  it('refuses values that are not text', () => {
    expect(safeNext(['/x'])).toBe('/home');
    expect(safeNext(null, '/account-info')).toBe('/account-info');
  });

  it('has the five tabs in the spec order and marks the right one', () => {
    expect(TABS.map((t) => t.key)).toEqual(['home', 'favourites', 'history', 'bookings', 'account']);
    expect(activeTab('/home')).toBe('home');
    expect(activeTab('/stores')).toBe('home');
    expect(activeTab('/store/5')).toBe('home');
    expect(activeTab('/favourite')).toBe('favourites');
    expect(activeTab('/viewed-list')).toBe('history');
    expect(activeTab('/booking-list')).toBe('bookings');
    expect(activeTab('/account-info')).toBe('account');
    expect(activeTab('/auth/signin')).toBe('account');
    expect(activeTab('/term')).toBeNull();
  });
});

describe('the store host’s paths (DESIGN §2)', () => {
  const store = (pathname: string, signedIn = false, search = '') => decideStoreRoute({ pathname, search, signedIn });

  it('serves the spec’s screens from the store site’s folder, sign-in first', () => {
    expect(store('/list-booking-manage', true, '?date=2026-11-24')).toEqual({ rewrite: '/store-host/list-booking-manage?date=2026-11-24' });
    expect(store('/edit-seat/12/', true)).toEqual({ rewrite: '/store-host/edit-seat/12' });
    expect(store('/list-booking-manage', false, '?date=2026-11-24')).toEqual({
      redirect: '/store-signin?next=%2Flist-booking-manage%3Fdate%3D2026-11-24',
      status: 302,
    });
    // The platform admin's screen asks for the admin's sign-in.
    expect(store('/admin-create-store', false)).toEqual({ redirect: '/admin-signin?next=%2Fadmin-create-store', status: 302 });
    expect(store('/store-signin')).toEqual({ rewrite: '/store-host/store-signin' });
    expect(store('/admin-signin', true)).toEqual({ redirect: '/list-booking-manage', status: 302 });
    expect(store('/store-signout')).toEqual({ rewrite: '/store-host/store-signout' });
  });

  it('sends / to the ledger or sign-in, lets the switchers through, and finds nothing else', () => {
    expect(store('/', true)).toEqual({ redirect: '/list-booking-manage', status: 302 });
    expect(store('/')).toEqual({ redirect: '/store-signin', status: 302 });
    expect(store('/preferences')).toBeNull();
    for (const p of ['/home', '/auth/signin', '/store-host/list-booking-manage', '/edit-seat/abc', '/account-info']) {
      expect([p, store(p, true)]).toEqual([p, { rewrite: '/store-host/not-found' }]);
    }
  });

  it('sends the platform admin, who has no store, from every store screen to its own', () => {
    const admin = (pathname: string, search = '') => decideStoreRoute({ pathname, search, signedIn: true, admin: true });
    for (const p of [
      '/list-booking-manage',
      '/list-seat-manage',
      '/detail-store-manage',
      '/list-payment-manage',
      '/list-store-manage',
      '/campaign-banner',
      '/edit-seat/3',
      '/payment/4',
      '/card-payment/4',
      '/edit-store/1',
      '/payment-detail/9',
    ]) {
      expect([p, admin(p, '?store=1')]).toEqual([p, { redirect: '/admin-create-store', status: 302 }]);
    }
    expect(admin('/')).toEqual({ redirect: '/admin-create-store', status: 302 });
    expect(admin('/admin-signin')).toEqual({ redirect: '/admin-create-store', status: 302 });
    expect(admin('/admin-create-store')).toEqual({ rewrite: '/store-host/admin-create-store' });
    expect(admin('/store-signout')).toEqual({ rewrite: '/store-host/store-signout' });
    expect(admin('/nowhere')).toEqual({ rewrite: '/store-host/not-found' });
    // Signed out, `admin` means nothing: the store's sign-in as for anyone.
    expect(decideStoreRoute({ pathname: '/list-seat-manage', search: '', signedIn: false, admin: true })).toEqual({
      redirect: '/store-signin?next=%2Flist-seat-manage',
      status: 302,
    });
  });

  it('knows the store site’s own folder, which the diner host never serves', () => {
    expect(isStoreSiteFolder('/store-host')).toBe(true);
    expect(isStoreSiteFolder('/store-host/list-booking-manage')).toBe(true);
    expect(isStoreSiteFolder('/store-hosting')).toBe(false);
    expect(isStoreSiteFolder('/store/12')).toBe(false);
  });
});
