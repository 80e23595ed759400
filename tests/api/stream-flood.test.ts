/**
 * One client holding many live-availability streams must not take the site from everyone else:
 * a cap per client address (429), a cap per process (503), both with Retry-After, every stream
 * freed when its client leaves, and a lifetime after which the server ends a stream by itself.
 * Clients are told apart by source address (127.0.0.x all reach the server on 127.0.0.1).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startApp, until, type App } from '../helpers/app';
import { openRaw, rawRequest, type OpenResponse } from '../helpers/raw';

const PER_CLIENT = 10; // the default of STREAMS_PER_CLIENT, tested as it ships
const TOTAL = 14;

for (const engine of ['pglite', 'postgres'] as const) {
  describe(`stream flood [${engine}]`, () => {
    let app: App;
    let path: string;
    const held: OpenResponse[] = [];
    const open = async (from: string, headers: Record<string, string> = {}) => {
      const s = await openRaw(app, { path, from, headers: { accept: 'text/event-stream', ...headers } });
      if (s.status === 200) {
        held.push(s);
        await s.waitFor(/: ok\n/);
      }
      return s;
    };
    /** Opens a stream as soon as the server has a place for it (places free when the server sees a client leave). */
    const openOnceFree = (from: string) =>
      until(async () => {
        const s = await open(from);
        if (s.status === 200) return s;
        s.close();
        return undefined;
      }, `a stream for ${from}`);

    beforeAll(async () => {
      app = await startApp(engine, { STREAMS_TOTAL: String(TOTAL) });
      const list = (await (await app.fetch('/api/stores?per_page=3')).json()) as { items: { id: number }[] };
      path = `/api/availability/stream?stores=${list.items.map((s) => s.id).join(',') || '1'}&party=2`;
    });
    afterEach(() => {
      for (const s of held.splice(0)) s.close();
    });
    afterAll(() => app?.stop());

    it('caps one address at 10 streams with 429, while other clients are served', async () => {
      for (let i = 0; i < PER_CLIENT; i++) expect((await open('127.0.0.1')).status).toBe(200);
      const refused = await open('127.0.0.1', { 'accept-language': 'ja' });
      expect(refused.status).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      await refused.ended;
      const body = JSON.parse(refused.text()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('too_many_streams');
      expect(body.error.message).toMatch(/[ぁ-んァ-ン]/);
      // Another client gets its stream, its events and its pages; the flooding client still gets pages.
      const other = await open('127.0.0.2');
      expect(other.status).toBe(200);
      await other.waitFor(/event: availability/);
      for (const from of ['127.0.0.2', '127.0.0.1']) {
        expect((await rawRequest(app, { path: '/home', from })).status).toBe(200);
        expect((await rawRequest(app, { path: '/api/areas', from })).status).toBe(200);
      }
    });

    it(`caps the process at STREAMS_TOTAL with 503 and Retry-After, and frees every place when clients leave`, async () => {
      // The places of the last test come back as the server sees its clients leave.
      for (let i = 0; i < PER_CLIENT; i++) await openOnceFree('127.0.0.1');
      for (let i = PER_CLIENT; i < TOTAL; i++) await openOnceFree(`127.0.0.${2 + i - PER_CLIENT}`);
      const full = await open('127.0.0.20');
      expect(full.status).toBe(503);
      expect(Number(full.headers['retry-after'])).toBeGreaterThan(0);
      await full.ended;
      expect(JSON.parse(full.text()).error.code).toBe('streams_full');
      expect((await rawRequest(app, { path: '/home', from: '127.0.0.20' })).status).toBe(200);
      // Everyone hangs up: every place comes back, the flooding address's too.
      for (const s of held.splice(0)) s.close();
      for (let i = 0; i < PER_CLIENT; i++) await openOnceFree('127.0.0.1');
      for (let i = PER_CLIENT; i < TOTAL; i++) await openOnceFree(`127.0.0.${30 + i}`);
      expect(held).toHaveLength(TOTAL);
    });

    it('closes the streams of a client that leaves: the server counts them out', async () => {
      const s = await open('127.0.0.50', { 'x-request-id': `leaving-${engine}` });
      expect(s.status).toBe(200);
      s.close();
      await app.waitForOutput(new RegExp(`"msg":"stream_closed","requestId":"leaving-${engine}"`), 'the server to close the stream');
    });
  });

  describe(`stream lifetime [${engine}]`, () => {
    let app: App;
    beforeAll(async () => {
      app = await startApp(engine, { STREAMS_PER_CLIENT: '1', STREAM_MAX_SECONDS: '2' });
    });
    afterAll(() => app?.stop());

    it('ends a stream after STREAM_MAX_SECONDS by itself and gives its place back', async () => {
      const list = (await (await app.fetch('/api/stores?per_page=1')).json()) as { items: { id: number }[] };
      const path = `/api/availability/stream?stores=${list.items[0]?.id ?? 1}`;
      const first = await openRaw(app, { path, from: '127.0.0.7' });
      expect(first.status).toBe(200);
      const second = await rawRequest(app, { path, from: '127.0.0.7' });
      expect(second.status).toBe(429);
      // The server ends it (the test never closes it): EventSource would reconnect, with Last-Event-ID.
      await first.ended;
      expect(first.text()).toMatch(/^retry: \d+/);
      const again = await until(async () => {
        const s = await openRaw(app, { path, from: '127.0.0.7' });
        if (s.status === 200) return s;
        s.close();
        return undefined;
      }, 'a new stream after the first one ended');
      again.close();
    });
  });
}
