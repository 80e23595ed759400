/**
 * The OpenAPI document describes the whole JSON API: every method every file under src/pages/api
 * exports is in it, and nothing else; bodies and queries carry the schemas the endpoints parse.
 * (tests/api/openapi.test.ts validates the served document with an OpenAPI validator.)
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../src/server/openapi';

const root = path.resolve(import.meta.dirname, '../../src/pages');

function endpoints(dir = path.join(root, 'api')): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const file = path.join(dir, e.name);
    if (e.isDirectory()) return endpoints(file);
    const route = '/' + path.relative(root, file).replace(/\.ts$/, '').replace(/\/index$/, '').replace(/\[(\w+)\]/g, '{$1}');
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

  it('names the error codes of a booking change’s 409, the diner’s and the store’s', () => {
    const conflict = (path: string, method: string) => doc.paths[path]![method].responses['409'].description as string;
    for (const path of ['/api/bookings/{id}', '/api/guest-bookings/{id}']) {
      for (const code of ['slot_taken', 'not_changeable', 'duplicate_booking', 'change_needs_store', 'idempotency_key_in_flight']) expect([path, conflict(path, 'patch')]).toEqual([path, expect.stringContaining(`\`${code}\``)]);
      expect(conflict(path, 'delete')).toContain('`not_changeable`');
    }
    for (const code of ['slot_taken', 'not_changeable', 'duplicate_booking', 'undo_expired', 'table_held']) expect(conflict('/api/store/bookings/{id}', 'patch')).toContain(`\`${code}\``);
    // The store agrees to its own change: the diner's fee rule never refuses it.
    expect(conflict('/api/store/bookings/{id}', 'patch')).not.toContain('change_needs_store');
  });
});
