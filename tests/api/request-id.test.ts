/**
 * Request ids: a request is answered with an `X-Request-Id` (the one it was sent, when that is a
 * safe token, else a new one), and every log line written while it is handled carries that id as
 * `req_id`, work the request left running after its answer included.
 */
import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { forEachApp, type App } from '../helpers/app';
import { signUp } from '../helpers/auth';

type Line = Record<string, unknown> & { msg: string };

/** The server's log lines (from offset `from`) that parse as JSON. */
function lines(app: App, from = 0): Line[] {
  return app
    .output()
    .slice(from)
    .split('\n')
    .flatMap((l) => {
      try {
        const line: unknown = JSON.parse(l);
        return line && typeof line === 'object' && 'msg' in line ? [line as Line] : [];
      } catch {
        return [];
      }
    });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

forEachApp(
  'request ids',
  (app) => {
    it('answers with the id it was sent, and writes it on every line of the request, the mail queued after the answer included', async () => {
      const u = await signUp(app());
      const id = `trace-${app().engine}-${randomUUID()}`;
      const from = app().output().length;
      const res = await app().fetch('/api/password/forgot', { method: 'POST', headers: { 'x-request-id': id }, json: { email: u.email } });
      expect(res.status).toBe(202);
      expect(res.headers.get('x-request-id')).toBe(id);
      // The mail is queued after the answer is made, by work the request started.
      await app().waitForOutput(new RegExp(`"msg":"mail_queued"[^\\n]*"req_id":"${id}"`), 'the reset mail queued under the request id', from);
      const own = lines(app(), from).filter((l) => l.req_id === id);
      expect(own.map((l) => l.msg)).toEqual(expect.arrayContaining(['request', 'mail_queued']));
      expect(own.find((l) => l.msg === 'request')).toMatchObject({ level: 'info', requestId: id, method: 'POST', path: '/api/password/forgot', status: 202 });
      // Nothing of this request was written without its id.
      expect(lines(app(), from).filter((l) => l.requestId === id && l.req_id !== id)).toEqual([]);
    });

    it('gives a request sent without a usable id one of its own, and logs it under that one', async () => {
      for (const sent of [undefined, 'has spaces in it', 'x'.repeat(65), 'quote"and<angle>']) {
        const from = app().output().length;
        const res = await app().fetch('/api/areas', sent === undefined ? {} : { headers: { 'x-request-id': sent } });
        expect(res.status).toBe(200);
        const id = res.headers.get('x-request-id');
        expect(id).toMatch(UUID);
        await app().waitForOutput(new RegExp(`"msg":"request"[^\\n]*"req_id":"${id}"`), `the request line of ${String(sent)}`, from);
        expect(lines(app(), from).find((l) => l.msg === 'request' && l.req_id === id)).toMatchObject({ requestId: id, path: '/api/areas', status: 200 });
        if (sent !== undefined) expect(app().output().slice(from)).not.toContain(sent);
      }
    });

    it("keeps requests handled at the same time apart: each line carries its own request's id", async () => {
      const ids = Array.from({ length: 8 }, (_, i) => `side-by-side-${i}-${randomUUID()}`);
      const from = app().output().length;
      const answers = await Promise.all(ids.map((id) => app().fetch('/api/stores?party=2', { headers: { 'x-request-id': id } })));
      expect(answers.map((r) => r.headers.get('x-request-id'))).toEqual(ids);
      for (const id of ids) await app().waitForOutput(new RegExp(`"msg":"request","requestId":"${id}"`), `the request line of ${id}`, from);
      const logged = lines(app(), from).filter((l) => l.msg === 'request' && ids.includes(String(l.requestId)));
      expect(logged).toHaveLength(ids.length);
      for (const line of logged) expect(line.req_id).toBe(line.requestId);
    });
  },
  {},
  { shared: true },
);
