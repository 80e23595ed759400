/**
 * The OpenAPI document describes the whole JSON API: every method every file under src/pages/api
 * exports is in it, and nothing else; bodies and queries carry the schemas the endpoints parse.
 * (tests/api/openapi.test.ts validates the served document with an OpenAPI validator.)
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../src/server/openapi';
import { ERROR_CODES } from '../../src/lib/contract/errors';
import { IDEMPOTENCY_KEY_HOURS, IDEMPOTENCY_KEY_MAX, IDEMPOTENCY_KEY_MIN } from '../../src/lib/contract/limits';

const root = path.resolve(import.meta.dirname, '../../src/pages');

function endpoints(dir = path.join(root, 'api')): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const file = path.join(dir, e.name);
    if (e.isDirectory()) return endpoints(file);
    const route = `/${path
      .relative(root, file)
      .replace(/\.ts$/, '')
      .replace(/\/index$/, '')
      .replace(/\[(\w+)\]/g, '{$1}')}`;
    return [...fs.readFileSync(file, 'utf8').matchAll(/^export const (GET|POST|PUT|PATCH|DELETE) =/gm)].map((m) => `${m[1]!.toLowerCase()} ${route}`);
  });
}

describe('OpenAPI document', () => {
  const doc = openApiDocument(new Date('2026-11-21T10:00:00Z')) as { paths: Record<string, Record<string, any>>; openapi: string };

  it('names every endpoint and method of the API, and no other', () => {
    const described = Object.entries(doc.paths).flatMap(([p, methods]) => Object.keys(methods).map((m) => `${m} ${p}`));
    const found = endpoints();
    expect(found.length).toBeGreaterThan(30);
    expect(described.sort()).toEqual(found.sort());
  });

  it('is OpenAPI 3.1 with the bodies and queries the endpoints parse', () => {
    expect(doc.openapi).toBe('3.1.0');
    const block = doc.paths['/api/store/blocks']!.post.requestBody.content['application/json'].schema;
    expect(block.required).toEqual(['table_id', 'start', 'end']);
    expect(block.properties.reason.maxLength).toBe(200);
    const guest = doc.paths['/api/guest-bookings']!.post.requestBody.content['application/json'].schema;
    expect(guest.required).toEqual(expect.arrayContaining(['store_id', 'start', 'party_size', 'name', 'name_kana', 'phone', 'email']));
    const day = doc.paths['/api/store/bookings']!.get.parameters.map((p: { name: string }) => p.name);
    expect(day).toEqual(['date', 'store_id']);
    expect(doc.paths['/api/store/bookings']!.get.responses['403']).toBeDefined();
  });

  it('names the codes of the store’s booking change and mark, which the diner’s fee rule never refuses', () => {
    const codes: string[] =
      doc.paths['/api/store/bookings/{id}']!.patch.responses['409'].content['application/json'].schema.allOf[1].properties.error.properties.code.enum;
    expect(codes).toEqual(expect.arrayContaining(['slot_taken', 'not_changeable', 'duplicate_booking', 'undo_expired', 'table_held']));
    expect(codes).not.toContain('change_needs_store');
  });

  it('names the codes of every booking create and change: its 409s, and the Idempotency-Key with its 422 and 409', () => {
    const codes = (response: any): string[] => response.content['application/json'].schema.allOf[1].properties.error.properties.code.enum;
    const ops = {
      'post /api/bookings': ['slot_taken', 'duplicate_booking'],
      'post /api/guest-bookings': ['slot_taken', 'duplicate_booking'],
      'patch /api/bookings/{id}': ['slot_taken', 'duplicate_booking', 'not_changeable', 'change_needs_store'],
      'patch /api/guest-bookings/{id}': ['slot_taken', 'duplicate_booking', 'not_changeable', 'change_needs_store'],
      'delete /api/bookings/{id}': ['not_changeable'],
      'delete /api/guest-bookings/{id}': ['not_changeable'],
    };
    for (const [name, conflicts] of Object.entries(ops)) {
      const [method, p] = name.split(' ') as [string, string];
      const op = doc.paths[p]![method];
      expect(codes(op.responses['409']), name).toEqual([...conflicts, 'idempotency_key_in_flight']);
      for (const code of codes(op.responses['409'])) expect(op.responses['409'].description, name).toContain(`\`${code}\``);
      expect(op.responses['409'].headers['Retry-After'], name).toBeDefined();
      expect(codes(op.responses['422']), name).toEqual(['idempotency_key_reused']);
      expect(codes(op.responses['503']), name).toEqual(['database_away']);
      const key = op.parameters.find((x: { name: string }) => x.name === 'Idempotency-Key');
      expect(key, name).toMatchObject({ in: 'header', required: false, schema: { minLength: IDEMPOTENCY_KEY_MIN, maxLength: IDEMPOTENCY_KEY_MAX } });
      expect(key.description).toContain(`${IDEMPOTENCY_KEY_HOURS} hours`);
    }
    // Every code named anywhere is one the API has.
    const named = JSON.stringify(doc).match(/"enum":\[[^\]]*\]/g) ?? [];
    const all = Object.values(doc.paths)
      .flatMap((m) => Object.values(m))
      .flatMap((op: any) => Object.values(op.responses))
      .flatMap((r: any) => {
        const s = r.content?.['application/json']?.schema;
        return s?.allOf ? codes(r) : [];
      });
    expect(named.length).toBeGreaterThan(0);
    expect(all.length).toBeGreaterThan(20);
    for (const code of all) expect(ERROR_CODES).toContain(code);
  });

  it('documents a 409 only where the operation can answer one, always with the codes it carries', () => {
    const with409 = Object.entries(doc.paths).flatMap(([p, methods]) =>
      Object.entries(methods as Record<string, any>)
        .filter(([, op]) => op.responses['409'])
        .map(([m, op]) => [`${m} ${p}`, op] as const),
    );
    for (const [name, op] of with409) expect(op.responses['409'].content['application/json'].schema.allOf, name).toBeDefined();
    const names = with409.map(([name]) => name);
    // A body alone does not make a conflict: the profile without a taken address, a password change, a sign-in.
    for (const none of ['post /api/login', 'put /api/me/password', 'put /api/store/details', 'post /api/users']) expect(names).not.toContain(none);
    for (const some of [
      'patch /api/me',
      'post /api/watches',
      'post /api/store/walk-ins',
      'post /api/store/blocks',
      'post /api/store/banners',
      'patch /api/store/tables/{id}',
      'patch /api/store/fees/{id}',
      'post /api/store/signup',
    ])
      expect(names).toContain(some);
  });
});
