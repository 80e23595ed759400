/**
 * The JSON API's shared parts: how a route answers, fails and reads its input.
 *
 * One module: the API's one way in (`api()`), its error answers and the readers of bodies, queries
 * and ids that every route uses together; each export is a few lines.
 */
import type { APIContext, APIRoute } from 'astro';
import * as z from 'zod/mini';
import type { MessageKey, T } from '../../i18n';
import { parseId } from '../../lib/validation';
import { noControlCharacter, textRule } from '../../lib/contract/fields';
import { fieldErrors, type Translate } from '../../lib/contract/messages';
import type { ErrorCode } from '../../lib/contract/errors';
import { errorBody } from './envelope';
import { BODY_MAX_BYTES } from '../../lib/contract/limits';
import { databaseAway, noteDatabaseFailure, RETRY_AFTER_SECONDS } from '../db/health';
import { log } from '../log';

/**
 * An error the API answers on purpose. `code` is stable for clients; the message is translated
 * from `messageKey`; `fields` maps field names to translated messages.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    readonly messageKey: MessageKey,
    readonly options: {
      fields?: Record<string, string>;
      extra?: Record<string, unknown>;
      headers?: Record<string, string>;
      params?: Record<string, unknown>;
    } = {},
  ) {
    super(code);
  }
}

export const notFound = () => new ApiError(404, 'not_found', 'api.error.notFound');

/** For an answer made outside an endpoint (Astro's own, an unknown method): the envelope's code and message by status. */
export function errorForStatus(status: number): ApiError {
  const known: Record<number, [ErrorCode, MessageKey]> = {
    400: ['bad_request', 'api.error.badRequest'],
    401: ['unauthorized', 'api.error.unauthorized'],
    403: ['forbidden', 'api.error.forbidden'],
    404: ['not_found', 'api.error.notFound'],
    405: ['method_not_allowed', 'api.error.methodNotAllowed'],
    413: ['body_too_large', 'validation.bodyTooLarge'],
    431: ['headers_too_large', 'api.error.headersTooLarge'],
  };
  const [code, key]: [ErrorCode, MessageKey] = known[status] ?? (status < 500 ? ['bad_request', 'api.error.badRequest'] : ['internal', 'api.error.internal']);
  return new ApiError(status, code, key);
}
/** The database cannot be reached: nothing is written, and the client may try again shortly. */
export const databaseAwayError = () =>
  new ApiError(503, 'database_away', 'api.error.databaseAway', { headers: { 'retry-after': String(RETRY_AFTER_SECONDS) } });

/** The error as the client is told it: the database being away is a 503 (and is noted), anything else stays as it is. */
export function asDatabaseAway(error: unknown): unknown {
  return noteDatabaseFailure(error) ? databaseAwayError() : error;
}

export const unauthorized = (key: MessageKey = 'api.error.unauthorized') => new ApiError(401, 'unauthorized', key);

export function json(data: unknown, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  headers.set('content-type', 'application/json; charset=utf-8');
  headers.set('cache-control', 'no-store');
  return new Response(data === undefined ? null : JSON.stringify(data), { ...init, headers });
}

export function errorResponse(t: T, error: ApiError): Response {
  const message = t(error.messageKey, error.options.params);
  const body = errorBody(error.code, message, { ...(error.options.fields ? { fields: error.options.fields } : {}), ...error.options.extra });
  return json(body, { status: error.status, headers: error.options.headers });
}

/**
 * The typed translator as the contract's plain one. Its keys come from the schemas' messages and
 * field names, which tests/unit/contract.test.ts checks against the dictionaries.
 */
export const translate =
  (t: T): Translate =>
  (key, params) =>
    t(key as MessageKey, params);

export function validationError(t: T, error: { issues: z.core.$ZodIssue[] }): ApiError {
  return new ApiError(400, 'validation_failed', 'validation.failed', { fields: fieldErrors(translate(t), error.issues) });
}

/**
 * The string every server-side schema starts from (the contract's schemas use the same check):
 * refuses the NUL character and lone surrogates, and keeps everything else as sent (passwords,
 * tokens). The message names the field.
 * @example safeString().check(z.minLength(1)).parse('pass word') // 'pass word'
 */
export const safeString = () => z.string().check(noControlCharacter);

/**
 * A line of free text people type (a name, a keyword): the contract's one text rule (src/lib/contract/fields.ts textRule).
 * @example lineText().check(z.trim()).parse(' 山田\u200B ') // '山田'
 */
export const lineText = () => z.string().check(...textRule('line'));

/** Parses a value with a schema, throwing the API's 400 with field messages. */
export function validate<S extends z.core.$ZodType>(t: T, schema: S, value: unknown): z.infer<S> {
  const result = z.safeParse(schema, value);
  if (!result.success) throw validationError(t, result.error);
  return result.data;
}

/** Any JSON object, for a body whose fields are checked later by a schema chosen from it or its owner. */
export const jsonObject = z.record(z.string(), z.unknown());

/** Reads a JSON body (at most BODY_MAX_BYTES, capped by the HTTP edge) and validates it. */
export async function readJson<S extends z.core.$ZodType>(request: Request, t: T, schema: S): Promise<z.infer<S>> {
  const text = await readCapped(request);
  let value: unknown;
  try {
    value = text.trim() === '' ? undefined : JSON.parse(text);
  } catch {
    throw new ApiError(400, 'invalid_json', 'validation.invalidJson');
  }
  if (value === undefined || value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ApiError(400, 'invalid_json', 'validation.invalidJson');
  }
  return validate(t, schema, value);
}

/**
 * The body as text. The HTTP edge (src/server/http/edge.ts) has already refused any body over
 * BODY_MAX_BYTES; the count here only matters under `astro dev`, which has no edge.
 */
export async function readCapped(request: Request): Promise<string> {
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > BODY_MAX_BYTES) {
      await reader.cancel();
      throw new ApiError(413, 'body_too_large', 'validation.bodyTooLarge');
    }
    chunks.push(value);
  }
  // Invalid UTF-8 is refused rather than stored as U+FFFD in someone's name or note.
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw new ApiError(400, 'invalid_encoding', 'validation.invalidEncoding');
  }
}

/** Query parameters as a plain object (first value wins), validated. */
export function readQuery<S extends z.core.$ZodType>(url: URL, t: T, schema: S): z.infer<S> {
  const params: Record<string, string> = {};
  for (const [k, v] of url.searchParams) params[k] ??= v;
  return validate(t, schema, params);
}

/** A numeric id from the path; anything else (letters, zero, beyond ID_MAX) is simply not found. */
export function idParam(value: string | undefined): number {
  const id = parseId(value);
  if (id === null) throw notFound();
  return id;
}

/**
 * True when the client went away in the middle of its request (an upload cut short, a closed tab):
 * nobody is left to answer, and it is not the server's fault.
 */
export function isClientAbort(error: unknown, request: Request): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  return request.signal.aborted || e?.code === 'ECONNRESET' || e?.message === 'aborted';
}

/**
 * Wraps an endpoint so that every failure becomes the error envelope with the right status:
 * deliberate ApiErrors as they are, anything else as a logged 500 without internals.
 */
export function api(handler: (context: APIContext) => Promise<Response> | Response): APIRoute {
  return async (context) => {
    // Known away: a write is answered at once, not after the driver's next connection attempt.
    if (databaseAway() && context.request.method !== 'GET' && context.request.method !== 'HEAD') return errorResponse(context.locals.t, databaseAwayError());
    try {
      return await handler(context);
    } catch (error) {
      if (error instanceof ApiError) return errorResponse(context.locals.t, error);
      if (isClientAbort(error, context.request)) {
        log('info', 'client_aborted', { path: context.url.pathname, requestId: context.locals.requestId });
        // 499 in the request log, as nginx counts it; the client never reads this.
        return new Response(null, { status: 499 });
      }
      if (noteDatabaseFailure(error)) return errorResponse(context.locals.t, databaseAwayError());
      log('error', 'api_failure', { path: context.url.pathname, requestId: context.locals.requestId, error: String((error as Error)?.stack ?? error) });
      return errorResponse(context.locals.t, new ApiError(500, 'internal', 'api.error.internal'));
    }
  };
}
