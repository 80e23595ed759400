/**
 * The OpenAPI 3.1 description of the whole JSON API, generated from the zod schemas the endpoints
 * themselves parse with (request bodies and query strings) and the contract's answer schemas
 * (src/lib/contract), by zod's own `toJSONSchema` (JSON Schema 2020-12, OpenAPI 3.1's dialect).
 * Served at /api/openapi.json; tests/unit/openapi.test.ts checks that every endpoint is in it.
 *
 * Its parts are in src/server/openapi/: the diner site's paths, the store host's, the wording of
 * conflicts, the shared components, and how one operation is written out.
 */
import { SESSION_COOKIE } from './sessions';
import { ANSWERS, jsonSchema, type Json, type Operation } from './openapi/components';
import { dinerOperations } from './openapi/dinerPaths';
import { operation } from './openapi/operation';
import { storeOperations } from './openapi/storePaths';

/** The shape of this document itself, as served at /api/openapi.json. */
const DOCUMENT = {
  type: 'object',
  properties: {
    openapi: { const: '3.1.0' },
    info: {
      type: 'object',
      properties: { title: { type: 'string' }, version: { type: 'string' }, description: { type: 'string' } },
      required: ['title', 'version'],
      additionalProperties: false,
    },
    jsonSchemaDialect: { type: 'string' },
    servers: { type: 'array', items: { type: 'object', properties: { url: { type: 'string' }, description: { type: 'string' } }, required: ['url'] } },
    security: { type: 'array' },
    tags: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, description: { type: 'string' } }, required: ['name'] } },
    // Each path's operations, and each component, are objects of OpenAPI's own shape.
    paths: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        additionalProperties: {
          type: 'object',
          properties: { operationId: { type: 'string' }, responses: { type: 'object' } },
          required: ['operationId', 'responses'],
        },
      },
    },
    components: {
      type: 'object',
      properties: {
        schemas: { type: 'object', additionalProperties: { type: 'object' } },
        securitySchemes: { type: 'object', additionalProperties: { type: 'object', properties: { type: { type: 'string' } }, required: ['type'] } },
      },
      required: ['schemas', 'securitySchemes'],
      additionalProperties: false,
    },
  },
  required: ['openapi', 'info', 'servers', 'paths', 'components'],
  additionalProperties: false,
};

/** Every endpoint under /api, by path and method. */
function operations(now: Date): Record<string, Record<string, Operation>> {
  return {
    ...dinerOperations(now),
    ...storeOperations(),
    '/api/openapi.json': { get: { summary: 'This description', ok: [200, DOCUMENT], tags: ['meta'] } },
  };
}

let routes: { pattern: RegExp; literal: boolean; methods: string[] }[] | undefined;

/**
 * The methods the document lists for the API path `pathname` (HEAD wherever GET is), or null when
 * it documents no such path: a method it does not list there is answered 405 with these in `Allow`
 * (src/middleware.ts). A fixed path (`/api/stores/nearby`) wins over a template that also fits it,
 * as Astro's routing does.
 * @example documentedMethods('/api/login') // ['POST', 'DELETE']
 */
export function documentedMethods(pathname: string): string[] | null {
  routes ??= Object.entries(operations(new Date())).map(([path, methods]) => {
    const names = Object.keys(methods).map((m) => m.toUpperCase());
    return {
      pattern: new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
      literal: !path.includes('{'),
      methods: names.includes('GET') ? [...names, 'HEAD'] : names,
    };
  });
  const fitting = routes.filter((r) => r.pattern.test(pathname));
  if (!fitting.length) return null;
  const chosen = fitting.some((r) => r.literal) ? fitting.filter((r) => r.literal) : fitting;
  return [...new Set(chosen.flatMap((r) => r.methods))];
}

/** The document, for `now` (the bookable dates in the availability query depend on the day). */
export function openApiDocument(now = new Date()): Json {
  const paths: Json = {};
  for (const [path, methods] of Object.entries(operations(now))) {
    paths[path] = Object.fromEntries(Object.entries(methods).map(([method, op]) => [method, operation(method, path, op)]));
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Sugu (すぐ予約) JSON API',
      version: '1',
      description: 'Last-minute restaurant bookings in Japan. Times are ISO 8601 with +09:00 (Asia/Tokyo); errors are `{error: {code, message, fields?}}`.',
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    // Relative: the document describes the site that serves it (diner site or store host).
    servers: [{ url: '/', description: 'The site serving this document' }],
    tags: [
      { name: 'account', description: 'Sign-up, sign-in and the account' },
      { name: 'diner', description: 'Finding stores and booking' },
      { name: 'store', description: 'The store host: staff of a store' },
      { name: 'admin', description: "The platform's admins: companies and their stores" },
      { name: 'meta', description: 'About the API' },
    ],
    paths,
    components: {
      schemas: Object.fromEntries(Object.entries(ANSWERS).map(([name, schema]) => [name, jsonSchema(schema, 'output')])),
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'The token from POST /api/login' },
        session: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE },
      },
    },
  };
}
