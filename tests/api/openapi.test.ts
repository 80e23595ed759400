/**
 * The served OpenAPI document (/api/openapi.json) is valid OpenAPI 3.1, checked by an independent
 * validator (@seriousme/openapi-schema-validator, the OpenAPI Initiative's JSON schemas), on both
 * engines; tests/unit/openapi.test.ts checks that it names every endpoint.
 */
import { expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { forEachApp } from '../helpers/app';

forEachApp(
  'OpenAPI document',
  (app) => {
    it('is served as JSON and validates as OpenAPI 3.1', async () => {
      const res = await app().fetch('/api/openapi.json');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      const doc = (await res.json()) as { openapi: string; paths: Record<string, unknown> };
      expect(doc.openapi).toBe('3.1.0');
      expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/bookings', '/api/store/bookings', '/api/store/blocks']));
      const validator = new Validator();
      const result = await validator.validate(doc);
      expect(result.errors ?? []).toEqual([]);
      expect(result.valid).toBe(true);
      expect(validator.version).toBe('3.1');
    });

    it('would refuse a broken document (the validator is really checking)', async () => {
      const doc = (await (await app().fetch('/api/openapi.json')).json()) as Record<string, any>;
      const broken = { ...doc, paths: { ...doc.paths, '/api/store/bookings': { get: { responses: { '200': { content: {} } } } } } };
      expect((await new Validator().validate(broken)).valid).toBe(false);
    });
  },
  {},
  { shared: true },
);
