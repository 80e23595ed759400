/**
 * `Idempotency-Key` on the JSON API's creates and changes (IETF httpapi idempotency-key draft): the
 * same key with the same body gets the first answer again, status and body; the same key with
 * another body is refused (422); a key whose first request is still being answered is refused
 * (409). Keys live in the database (idempotency_keys), so a retry that lands on another instance
 * is answered the same, and are forgotten after 24 hours.
 *
 * A guest's first answer holds the booking's edit token, shown once and otherwise stored only as a
 * hash. The answer is therefore kept sealed (AES-256-GCM) with a key derived from the
 * Idempotency-Key itself: only the client that sent the key can have it opened, and the table
 * gives nothing to someone who reads it. The row's id is a different hash of the key (with who
 * sent it), so it cannot be used to open the answer.
 */
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import type { APIContext } from 'astro';
import { sql } from 'drizzle-orm';
import type { Db } from './db/types';
import { ApiError, errorResponse, readCapped } from './http/api';
import { DEVICE_COOKIE, DEVICE_ID } from './bookingLimits';
import { clock } from './clock';
import { IDEMPOTENCY_KEY_HOURS, IDEMPOTENCY_KEY_MAX, IDEMPOTENCY_KEY_MIN } from '../lib/contract/limits';
import { log } from './log';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
/** How long a key is remembered. */
export const IDEMPOTENCY_TTL_MS = IDEMPOTENCY_KEY_HOURS * 60 * 60_000;
/**
 * A first request that has not finished after this long died with its instance: its key may be
 * used again. (The booking it may have made is still caught as a duplicate of the diner's own.)
 */
const ABANDONED_MS = 2 * 60_000;
/**
 * A key as the draft's structured-field string (quoted) or bare: printable ASCII, long enough to be
 * unguessable, since it also seals the answer. The islands send a UUID.
 */
const KEY = new RegExp(`^[\\x21-\\x7e]{${IDEMPOTENCY_KEY_MIN},${IDEMPOTENCY_KEY_MAX}}$`);

export interface Answer {
  status: number;
  body: string;
  location?: string;
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

function sealKey(key: string, who: string): Buffer {
  return Buffer.from(hkdfSync('sha256', key, who, 'sugu idempotent answer', 32));
}

export function seal(answer: Answer, key: string, who: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealKey(key, who), iv);
  const data = Buffer.concat([cipher.update(JSON.stringify(answer), 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), data]).toString('base64');
}

export function unseal(sealed: string, key: string, who: string): Answer {
  const raw = Buffer.from(sealed, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', sealKey(key, who), raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return JSON.parse(Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8')) as Answer;
}

/** The key sent, or null; a malformed one is a 400. */
export function idempotencyKey(request: Request): string | null {
  const header = request.headers.get(IDEMPOTENCY_HEADER);
  if (header === null) return null;
  const quoted = /^"(.*)"$/.exec(header.trim());
  const key = quoted ? quoted[1]! : header.trim();
  if (!KEY.test(key)) throw new ApiError(400, 'bad_request', 'api.error.idempotencyKey');
  return key;
}

/**
 * Who a key belongs to: the account, else the browser's device cookie as it sent it, else its
 * address. Two diners never share a key's answer.
 */
export function keyOwner(context: Pick<APIContext, 'locals' | 'cookies'>): string {
  if (context.locals.user) return `user:${context.locals.user.id}`;
  const device = context.cookies.get(DEVICE_COOKIE)?.value;
  return device && DEVICE_ID.test(device) ? `device:${device}` : `addr:${context.locals.clientAddress}`;
}

/** Answers worth keeping: a decision (2xx, 4xx), not a passing condition (too many, overloaded, failed). */
const keeps = (status: number) => status < 500 && status !== 429 && status !== 499 && status !== 408;

/**
 * Runs `handle` at most once per key: with no key, just runs it. `handle` gets the request with its
 * body re-readable; an ApiError it throws is answered (and kept) like any other answer. `replayed`
 * is told of an answer given again, before it is sent (a guest's booking sets its cookies again).
 */
export async function idempotent(
  db: Db,
  context: Pick<APIContext, 'locals' | 'cookies' | 'request' | 'url'>,
  handle: (request: Request) => Promise<Response>,
  replayed?: (answer: Answer) => void,
): Promise<Response> {
  const { request, locals } = context;
  const key = idempotencyKey(request);
  if (key === null) return handle(request);
  const body = await readCapped(request);
  const again = new Request(request.url, { method: request.method, headers: request.headers, body: body === '' ? undefined : body });
  const who = keyOwner(context);
  const id = sha256(`sugu-idempotency\0${who}\0${key}`);
  const fingerprint = sha256(`${request.method} ${context.url.pathname}\n${body}`);
  const now = clock.now();
  const expired = new Date(now.getTime() - IDEMPOTENCY_TTL_MS);
  const abandoned = new Date(now.getTime() - ABANDONED_MS);

  // Claim the key, or take over one forgotten (24 h) or abandoned (its first request died).
  const claimed = await db.execute(sql`
    insert into idempotency_keys (id, fingerprint, status, answer, created_at)
    values (${id}, ${fingerprint}, null, null, ${now.toISOString()}::timestamptz)
    on conflict (id) do update set fingerprint = excluded.fingerprint, status = null, answer = null, created_at = excluded.created_at
      where idempotency_keys.created_at < ${expired.toISOString()}::timestamptz or (idempotency_keys.status is null and idempotency_keys.created_at < ${abandoned.toISOString()}::timestamptz)
    returning id`);

  if (!claimed.length) {
    const [row] = await db.execute<{ fingerprint: string; status: number | null; answer: string | null }>(
      sql`select fingerprint, status, answer from idempotency_keys where id = ${id}`,
    );
    if (!row) return idempotent(db, { ...context, request: again }, handle, replayed);
    if (row.fingerprint !== fingerprint) throw new ApiError(422, 'idempotency_key_reused', 'api.error.idempotencyKeyReused');
    if (row.status === null || row.answer === null)
      throw new ApiError(409, 'idempotency_key_in_flight', 'api.error.idempotencyKeyInFlight', { headers: { 'retry-after': '1' } });
    const answer = unseal(row.answer, key, who);
    replayed?.(answer);
    return answerResponse(answer);
  }

  let response: Response;
  try {
    response = await handle(again);
  } catch (error) {
    if (!(error instanceof ApiError)) {
      await release(db, id);
      throw error;
    }
    response = errorResponse(locals.t, error);
  }
  if (!keeps(response.status)) {
    await release(db, id);
    return response;
  }
  const text = await response.text();
  const answer: Answer = { status: response.status, body: text, ...(response.headers.get('location') ? { location: response.headers.get('location')! } : {}) };
  await db.execute(sql`update idempotency_keys set status = ${answer.status}, answer = ${seal(answer, key, who)} where id = ${id}`);
  return new Response(text, { status: response.status, headers: response.headers });
}

/**
 * Forgets the keys older than IDEMPOTENCY_TTL_MS (the background work runs it every hour on each
 * instance; any of them may). A key reused after that is a new request whether or not it was swept:
 * the claim above takes over an expired row.
 */
export async function sweepIdempotencyKeys(db: Db, now = clock.now()): Promise<number> {
  const expired = new Date(now.getTime() - IDEMPOTENCY_TTL_MS);
  const rows = await db.execute(sql`delete from idempotency_keys where created_at < ${expired.toISOString()}::timestamptz returning id`);
  if (rows.length) log('info', 'idempotency_keys_swept', { count: rows.length });
  return rows.length;
}

const release = (db: Db, id: string) => db.execute(sql`delete from idempotency_keys where id = ${id} and status is null`).catch(() => {});

function answerResponse(a: Answer): Response {
  const headers = new Headers({ 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  if (a.location) headers.set('location', a.location);
  return new Response(a.body, { status: a.status, headers });
}
