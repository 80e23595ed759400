/**
 * Discovery API over HTTP on both engines, at the real current time: the listing, one store,
 * its availability, areas, and bad input (4xx, never 500).
 */
import { expect, it } from 'vitest';
import { forEachApp } from '../helpers/app';

type Slot = { start: string; end: string; free_tables: number };
type Card = {
  id: number;
  name: string;
  genre: string;
  area: { id: number; name: string };
  station: string;
  distance_m: number | null;
  next_slots: Slot[];
  free_tables: number;
  bookable_now: boolean;
};
type Page = { items: Card[]; page: number; per_page: number; total: number };

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:00\+09:00$/;

forEachApp('discovery API', (app) => {
  const get = async <T>(path: string, status = 200): Promise<T> => {
    const res = await app().fetch(path, { headers: { 'accept-language': 'ja' } });
    expect([path, res.status]).toEqual([path, status]);
    expect(res.headers.get('content-type')).toContain('application/json');
    return (await res.json()) as T;
  };

  it('lists the areas with their store counts', async () => {
    const areas = await get<Array<{ id: number; name: string; store_count: number }>>('/api/areas');
    expect(areas.length).toBeGreaterThanOrEqual(8);
    expect(areas.map((a) => a.name)).toEqual(expect.arrayContaining(['渋谷', '新宿', '銀座']));
    for (const a of areas) expect(a.store_count).toBeGreaterThan(0);
  });

  it('lists stores bookable now: every item has free starts within the hour, total counts them all', async () => {
    const now = Date.now();
    const first = await get<Page>('/api/stores?per_page=50');
    expect(first.page).toBe(1);
    // Some seeded stores are open 24 hours, so the listing is never empty.
    expect(first.total).toBeGreaterThan(0);
    const all = [...first.items];
    for (let p = 2; all.length < first.total; p++) all.push(...(await get<Page>(`/api/stores?per_page=50&page=${p}`)).items);
    expect(all).toHaveLength(first.total);
    expect(new Set(all.map((c) => c.id)).size).toBe(all.length);
    for (const c of all) {
      expect(c.bookable_now).toBe(true);
      expect(c.free_tables).toBeGreaterThan(0);
      expect(c.free_tables).toBe(c.next_slots[0]!.free_tables);
      for (const s of c.next_slots) {
        expect(s.start).toMatch(ISO);
        const start = Date.parse(s.start);
        // Never a past start (the mark may equal "now" rounded up), never beyond the hour.
        expect(start).toBeGreaterThan(now - 15 * 60_000);
        expect(start).toBeLessThanOrEqual(now + 61 * 60_000);
        expect(new Date(start).getUTCMinutes() % 15).toBe(0);
      }
    }
  });

  it('searches by keyword, and filters by area and genre', async () => {
    // Everything starts from a store bookable now (the seed keeps some open at every hour), so
    // no check here can pass on an empty answer. Genre and area keywords at dinner time, with
    // their exact store sets, are in search-japanese.test.ts.
    const sample = (await get<Page>('/api/stores?per_page=1')).items[0]!;
    expect(sample).toBeDefined();
    const area = await get<Page>(`/api/stores?area=${sample.area.id}&per_page=50`);
    expect(area.items.map((c) => c.id)).toContain(sample.id);
    for (const c of area.items) expect(c.area.id).toBe(sample.area.id);
    const genre = await get<Page>(`/api/stores?genre=${sample.genre}&per_page=50`);
    expect(genre.items.map((c) => c.id)).toContain(sample.id);
    for (const c of genre.items) expect(c.genre).toBe(sample.genre);
    // The area's name as a keyword finds the sample and only stores of that area, station or name.
    const byArea = await get<Page>(`/api/stores?name=${encodeURIComponent(sample.area.name)}&per_page=50`);
    expect(byArea.items.map((c) => c.id)).toContain(sample.id);
    for (const c of byArea.items)
      expect(c.area.name === sample.area.name || c.station.includes(sample.area.name) || c.name.includes(sample.area.name)).toBe(true);
    const named = await get<Page>(`/api/stores?name=${encodeURIComponent(sample.name)}&per_page=50`);
    expect(named.items.map((c) => c.id)).toContain(sample.id);
    expect((await get<Page>(`/api/stores?name=${encodeURIComponent('存在しない店名zz')}`)).total).toBe(0);
  });

  it('puts the nearest first when given a position', async () => {
    const page = await get<Page>('/api/stores?lat=35.7141&lng=139.7774&per_page=50'); // 上野駅
    const d = page.items.map((c) => c.distance_m!);
    expect(d.length).toBeGreaterThan(0);
    expect(d.every((x) => Number.isFinite(x))).toBe(true);
    expect([...d].sort((a, b) => a - b)).toEqual(d);
  });

  it('answers one store, and 404 for unknown or malformed ids', async () => {
    const store = await get<{
      id: number;
      name: string;
      phone: string;
      hours: unknown[];
      photos: Array<{ width: number; height: number }>;
      budget: { min: number; max: number };
    }>('/api/stores/1');
    expect(store.id).toBe(1);
    expect(store.phone).toMatch(/^0\d{1,4}-\d{1,4}-\d{4}$/);
    expect(store.hours.length).toBeGreaterThan(0);
    expect(store.photos[0]).toMatchObject({ width: 640, height: 400 });
    expect(store.budget.max).toBeGreaterThanOrEqual(store.budget.min);
    for (const bad of ['abc', '0', '-1', '1.5', '99999999', '1e3', '%20']) {
      const body = await get<{ error: { code: string } }>(`/api/stores/${bad}`, 404);
      expect(body.error.code).toBe('not_found');
    }
    await get(`/api/stores/abc/availability`, 404);
    await get(`/api/stores/99999/availability`, 404);
  });

  it('answers availability for a day by party size, never with a past start', async () => {
    const now = Date.now();
    const today = await get<{ date: string; slots: Slot[] }>('/api/stores/1/availability?party=2');
    for (const s of today.slots) {
      expect(s.start).toMatch(ISO);
      expect(Date.parse(s.start)).toBeGreaterThan(now - 15 * 60_000);
      expect(Date.parse(s.end)).toBeGreaterThan(Date.parse(s.start));
      expect(s.free_tables).toBeGreaterThanOrEqual(0);
    }
    const inAWeek = new Date(now + 7 * 86400_000 + 9 * 3600_000).toISOString().slice(0, 10);
    const later = await get<{ date: string; slots: Slot[] }>(`/api/stores/1/availability?date=${inAWeek}&party=2`);
    expect(later.date).toBe(inAWeek);
    for (const s of later.slots) expect(s.start.slice(0, 10) >= inAWeek).toBe(true);
    // A party typed with the IME on (full-width digits) is the same party.
    expect(await get(`/api/stores/1/availability?date=${inAWeek}&party=${encodeURIComponent('２')}`)).toEqual(later);
    // A party bigger than any table: starts may exist but none has a free table.
    const huge = await get<{ slots: Slot[] }>('/api/stores/1/availability?party=20');
    const store = await get<{ max_party: number }>('/api/stores/1');
    if (store.max_party < 20) for (const s of huge.slots) expect(s.free_tables).toBe(0);
  });

  it('refuses bad input with 400 and a field message, never 500', async () => {
    const cases: Array<[string, string]> = [
      ['/api/stores?party=0', 'party'],
      ['/api/stores?party=999', 'party'],
      ['/api/stores?party=abc', 'party'],
      ['/api/stores?party=2.5', 'party'],
      ['/api/stores?lat=200&lng=139', 'lat'],
      ['/api/stores?lat=35&lng=500', 'lng'],
      ['/api/stores?lat=35', 'lng'],
      ['/api/stores?page=-1', 'page'],
      ['/api/stores?page=0', 'page'],
      ['/api/stores?per_page=1000', 'per_page'],
      ['/api/stores?area=abc', 'area'],
      ['/api/stores?genre=pizza', 'genre'],
      [`/api/stores?name=${encodeURIComponent('焼'.repeat(101))}`, 'name'],
      ['/api/stores?sort=rating', 'sort'],
      ['/api/stores?budget_min=-1', 'budget_min'],
      ['/api/stores?budget_max=abc', 'budget_max'],
      ['/api/stores?budget_max=1000000', 'budget_max'],
      ['/api/stores?budget_min=5000&budget_max=3000', 'budget_max'],
      ['/api/stores?seat=sofa', 'seat'],
      ['/api/stores?tag=non_smoking&tag=wifi', 'tag.1'],
      ['/api/stores/1/availability?date=2020-01-01', 'date'],
      ['/api/stores/1/availability?date=tomorrow', 'date'],
      ['/api/stores/1/availability?party=0', 'party'],
      ['/api/stores/1/availability?party=999', 'party'],
    ];
    for (const [path, field] of cases) {
      const body = await get<{ error: { code: string; fields: Record<string, string> } }>(path, 400);
      expect([path, body.error.code]).toEqual([path, 'validation_failed']);
      expect(Object.keys(body.error.fields)).toContain(field);
    }
    const parties = await get<{ error: { fields: Record<string, string> } }>('/api/stores?party=999', 400);
    expect(parties.error.fields.party).toBe('人数は20以下にしてください');
    const budget = await get<{ error: { fields: Record<string, string> } }>('/api/stores?budget_min=5000&budget_max=3000', 400);
    expect(budget.error.fields.budget_max).toBe('予算（上限）は下限以上の金額を選んでください');
    // A 10 KB keyword is refused, not searched.
    const long = await app().fetch(`/api/stores?name=${'a'.repeat(10 * 1024)}`);
    expect(long.status).toBe(400);
  });

  it('needs a sign-in for favourites and history', async () => {
    for (const [method, path] of [
      ['GET', '/api/favourites'],
      ['PUT', '/api/favourites/1'],
      ['DELETE', '/api/favourites/1'],
      ['GET', '/api/history'],
    ] as const) {
      const res = await app().fetch(path, { method });
      expect([path, res.status]).toEqual([path, 401]);
    }
  });

  it('renders the listing pages server-side and the not-found screen for unknown stores and areas', async () => {
    const home = await app().fetch('/home', { headers: { 'accept-language': 'ja' } });
    expect(home.status).toBe(200);
    const html = await home.text();
    expect(html).toContain('id="store-results"');
    expect(html).not.toContain('leaflet');
    expect((await app().fetch('/stores?name=%E7%84%BC%E8%82%89')).status).toBe(200);
    expect((await app().fetch('/stores?party=999')).status).toBe(400);
    expect((await app().fetch('/areas/1')).status).toBe(200);
    for (const path of ['/store/abc', '/store/0', '/store/99999', '/areas/abc', '/areas/9999']) {
      const res = await app().fetch(path, { headers: { 'accept-language': 'ja' } });
      expect([path, res.status]).toEqual([path, 404]);
      expect(await res.text()).toContain('ページが見つかりません');
    }
    const store = await app().fetch('/store/1', { headers: { 'accept-language': 'ja' } });
    expect(store.status).toBe(200);
    const page = await store.text();
    expect(page).toMatch(/href="tel:0\d+"/);
    expect(page).toContain('/store/1/booking-without?');
    expect((await app().fetch('/store/1?date=1999-01-01')).status).toBe(400);
  });
});
