/**
 * A method the API document does not list for a path it documents is answered 405 with `Allow`
 * naming the ones it does (HEAD wherever GET is), in the JSON envelope; an undocumented path stays 404.
 */
import { expect, it } from 'vitest';
import { forEachApp } from '../helpers/app';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

forEachApp('unsupported methods', (app) => {
  it('answers 405 with Allow on every documented path, for every method it does not document there', async () => {
    const doc = (await (await app().fetch('/api/openapi.json')).json()) as { paths: Record<string, Record<string, unknown>> };
    let checked = 0;
    for (const [template, operations] of Object.entries(doc.paths)) {
      const documented = Object.keys(operations).map((m) => m.toUpperCase());
      const path = template.replace(/\{[^}]+\}/g, '1');
      for (const method of METHODS.filter((m) => !documented.includes(m))) {
        const res = await app().fetch(path, {
          method,
          headers: { 'accept-language': 'ja', 'content-type': 'application/json' },
          body: method === 'GET' ? undefined : '{}',
        });
        const body = (await res.json()) as { error: { code: string; message: string } };
        expect([method, path, res.status]).toEqual([method, path, 405]);
        expect(body.error.code).toBe('method_not_allowed');
        const allow = res.headers.get('allow')?.split(/,\s*/).sort();
        expect([method, path, allow]).toEqual([method, path, [...documented, ...(documented.includes('GET') ? ['HEAD'] : [])].sort()]);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(50);
    const nowhere = await app().fetch('/api/no-such-thing', { method: 'PUT' });
    expect(nowhere.status).toBe(404);
    await nowhere.body?.cancel();
  });
});
