/** An operation of the API document written out: its parameters, request body and every answer it may give, errors included. */
import type * as z from 'zod/mini';
import type { ErrorCode } from '../../lib/contract/errors';
import { IDEMPOTENCY_KEY_HOURS, IDEMPOTENCY_KEY_MAX, IDEMPOTENCY_KEY_MIN } from '../../lib/contract/limits';
import { jsonSchema, ref, type Json, type Operation } from './components';
import { CONFLICT } from './conflicts';

/** The `Idempotency-Key` header, as the IETF httpapi draft has it. */
const idempotencyKeyParameter = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description: `A unique key per intent (${IDEMPOTENCY_KEY_MIN}–${IDEMPOTENCY_KEY_MAX} printable ASCII characters, e.g. a UUID; the draft's quoted form is the same key), sent again on every retry of it. Within ${IDEMPOTENCY_KEY_HOURS} hours the same key with the same body gets the first answer again, status and body (a guest booking's edit token included), from any instance; with another body 422 \`idempotency_key_reused\`; while the first request is still being answered 409 \`idempotency_key_in_flight\` with Retry-After. After ${IDEMPOTENCY_KEY_HOURS} hours the key is forgotten and is a new request. A malformed key is 400.`,
  schema: { type: 'string', minLength: IDEMPOTENCY_KEY_MIN, maxLength: IDEMPOTENCY_KEY_MAX },
};

/** Query parameters from an object schema's properties. */
function queryParameters(schema: z.core.$ZodType): Json[] {
  const s = jsonSchema(schema, 'input') as { properties?: Record<string, Json>; required?: string[] };
  return Object.entries(s.properties ?? {}).map(([name, property]) => ({ name, in: 'query', required: s.required?.includes(name) ?? false, schema: property }));
}

const errorResponse = (description: string) => ({ description, content: { 'application/json': { schema: ref('Error') } } });
/** An error answer whose `error.code` is one of `codes`, each listed with its meaning. */
const codedResponse = (lead: string, codes: Partial<Record<ErrorCode, string>>, headers?: Json) => ({
  description: `${lead}; \`error.code\` is one of:\n${Object.entries(codes)
    .map(([code, meaning]) => `- \`${code}\`: ${meaning}`)
    .join('\n')}`,
  ...(headers ? { headers } : {}),
  content: {
    'application/json': {
      schema: { allOf: [ref('Error'), { type: 'object', properties: { error: { type: 'object', properties: { code: { enum: Object.keys(codes) } } } } }] },
    },
  },
});
const retryAfter = { 'Retry-After': { description: 'Seconds to wait before trying again', schema: { type: 'integer' } } };

/**
 * The operation's name for generated clients, from its method and path: `GET /api/stores/{id}/availability`
 * is `getStoresIdAvailability`.
 */
export function operationId(method: string, path: string): string {
  const words = path
    .replace(/^\/api\//, '')
    .split(/[/{}._-]+/)
    .filter(Boolean);
  return method.toLowerCase() + words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
}

/** One operation as OpenAPI writes it: parameters, body and every answer it may give. */
export function operation(method: string, path: string, op: Operation): Json {
  const [status, answer] = op.ok;
  const content =
    answer === null
      ? undefined
      : typeof answer === 'string'
        ? { 'application/json': { schema: ref(answer) } }
        : 'type' in answer
          ? { 'application/json': { schema: answer } }
          : answer;
  const responses: Json = {
    [status]: { description: 'Success', ...(content ? { content } : {}) },
    '400': errorResponse('Invalid input; `fields` names each invalid field'),
    '429': errorResponse('Too many requests'),
    '431': errorResponse('The request line or headers are larger than the server reads (`headers_too_large`)'),
    '503': errorResponse('The database is away for a moment, or the server is shutting down; try again after Retry-After'),
  };
  if (op.body) responses['413'] = errorResponse('The body is larger than the API reads');
  // Writes from another site's page are refused before anything else (src/server/http/origin.ts).
  if (method !== 'get') responses['403'] = errorResponse('Sent by another site’s page (`cross_origin`)');
  if (op.auth) responses['401'] = errorResponse('Not signed in');
  if (op.auth === 'staff') responses['403'] = errorResponse('Not a store staff account, or (a write) sent by another site’s page');
  if (op.auth === 'admin') responses['403'] = errorResponse("Not the platform admin's account, or (a write) sent by another site’s page");
  for (const [code, description] of Object.entries(op.errors ?? {})) responses[code] = errorResponse(description);
  // A record named in the path, the body or the query that is unknown, or someone else's.
  if (op.ids?.length || op.body || op.query || op.auth) responses['404'] = errorResponse("Not found (someone else's is not found either)");
  if (op.conflicts || op.idempotent) {
    const codes = { ...op.conflicts, ...(op.idempotent ? { idempotency_key_in_flight: CONFLICT.idempotency_key_in_flight } : {}) };
    responses['409'] = codedResponse('Conflict', codes, op.idempotent ? retryAfter : undefined);
  }
  if (op.idempotent) {
    responses['422'] = codedResponse('The Idempotency-Key was used with another request', {
      idempotency_key_reused: `the key was sent within ${IDEMPOTENCY_KEY_HOURS} hours with another method, path or body; nothing was done`,
    });
    responses['503'] = codedResponse('The database is away for a moment; nothing was done', { database_away: 'try again after Retry-After' }, retryAfter);
  }
  return {
    operationId: operationId(method, path),
    summary: op.summary,
    tags: op.tags,
    // No security: anyone may call it (a guest's token, when it takes one, is a header of its own).
    security: op.auth ? [{ bearer: [] }, { session: [] }] : [],
    parameters: [
      ...(op.ids ?? []).map((name) => ({ name, in: 'path', required: true, schema: { type: 'integer', minimum: 1 } })),
      ...(op.weekday
        ? [{ name: 'weekday', in: 'path', required: true, description: '0 = Sunday … 6 = Saturday', schema: { type: 'integer', minimum: 0, maximum: 6 } }]
        : []),
      ...(op.query ? queryParameters(op.query) : []),
      ...(op.idempotent ? [idempotencyKeyParameter] : []),
    ],
    ...(op.body ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(op.body, 'input') } } } } : {}),
    responses,
  };
}
