/**
 * Fixed-window counters in the `rate_limits` table, so every app instance sharing the database
 * sees the same counts. One upsert per request, however many keys it counts; a window starts at the
 * first hit after the last one ended.
 *
 * One module: the table of limits, the counters and the keys they count by are one mechanism,
 * small enough to read whole.
 */
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/types';
import { ApiError } from './api';
import type { MessageKey } from '../../i18n';
import { addressGroup } from './client';
import { normaliseRecipient } from '../../lib/contract/recipient';

export interface Limit {
  /** Hits allowed per window. */
  max: number;
  windowMs: number;
}

/**
 * Limits on accounts (docs/production.md, "Abuse limits"). Sign-in failures count per pair of
 * client address and account, so no one can lock an owner out from elsewhere; an address that
 * fails on many accounts is slowed down, never shut out. Sign-up is generous so a household or an
 * office behind one address is never blocked.
 */
export const LIMITS = {
  /** Failed sign-ins of one account from one address; past this, that pair waits out the window. */
  loginPerPair: { max: 10, windowMs: 15 * 60_000 },
  /** Failed sign-ins from one address, whatever the account (password spraying)… */
  loginPerIp: { max: 50, windowMs: 15 * 60_000 },
  /** …past which that address may try once every 10 s until its failures age out. */
  loginSlowed: { max: 1, windowMs: 10_000 },
  /** Reset requests for one account from one address group: past this, that pair waits (429). */
  resetPerPair: { max: 5, windowMs: 60 * 60_000 },
  resetPerIp: { max: 20, windowMs: 60 * 60_000 },
  /** Reset mails to one account, from everywhere: past this, requests are answered alike but mail nothing. */
  resetPerAccount: { max: 10, windowMs: 60 * 60_000 },
  signupPerIp: { max: 50, windowMs: 10 * 60_000 },
  /**
   * Steps of a provider sign-in (「LINEでログイン」) from one address group: its start and its callback
   * each count, so this is 30 sign-ins per 10 minutes. Each start stores a transaction and each
   * callback costs a round trip to the provider: without it one client could fill the table and
   * have the provider throttle Sugu for everyone.
   */
  oidcPerIp: { max: 60, windowMs: 10 * 60_000 },
  /** Verification mails asked for again by one account, and from one address group. */
  verifyResendPerAccount: { max: 3, windowMs: 60 * 60_000 },
  verifyResendPerIp: { max: 20, windowMs: 60 * 60_000 },
  /** Watches (空席通知) made from one address, and confirmation mails to one guest address. */
  watchPerIp: { max: 30, windowMs: 60 * 60_000 },
  watchPerEmail: { max: 10, windowMs: 60 * 60_000 },
  /** Invitations (each one a mail) sent by one account, and to one address. */
  invitePerAccount: { max: 30, windowMs: 60 * 60_000 },
  invitePerEmail: { max: 5, windowMs: 60 * 60_000 },
} satisfies Record<string, Limit>;

export interface LimitState {
  count: number;
  /** Seconds until the window ends. */
  retryAfter: number;
}

function retryAfter(resetAt: string | Date): number {
  return Math.max(1, Math.ceil((new Date(resetAt).getTime() - Date.now()) / 1000));
}

/**
 * Counts one hit on each key in one statement (a guest booking counts four keys: one round trip,
 * not four) and returns each key's count in its current window. The keys go in sorted, so two
 * requests sharing keys lock their rows in one order and never wait on each other in a circle;
 * nothing else holds two of these rows at once (see `refund` and the sweep in `consume`).
 */
async function hitAll(db: Db, checks: readonly { key: string; limit: Limit }[]): Promise<Map<string, LimitState>> {
  const unique = [...new Map(checks.map((c) => [c.key, c])).values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const counted = new Map<string, LimitState>();
  if (!unique.length) return counted;
  const rows = await db.execute<{ key: string; count: number; reset_at: string }>(sql`
    insert into rate_limits (key, count, reset_at)
    values ${sql.join(
      unique.map(({ key, limit }) => sql`(${key}, 1, now() + ${limit.windowMs} * interval '1 millisecond')`),
      sql`, `,
    )}
    on conflict (key) do update set
      count = case when rate_limits.reset_at <= now() then 1 else rate_limits.count + 1 end,
      reset_at = case when rate_limits.reset_at <= now() then excluded.reset_at else rate_limits.reset_at end
    returning key, count, reset_at`);
  for (const row of rows) counted.set(row.key, { count: Number(row.count), retryAfter: retryAfter(row.reset_at) });
  return counted;
}

/** Counts one hit and returns the count in the current window. */
export async function hit(db: Db, key: string, limit: Limit): Promise<LimitState> {
  return (await hitAll(db, [{ key, limit }])).get(key)!;
}

/** The current count without counting, e.g. failures so far. */
export async function peek(db: Db, key: string): Promise<LimitState> {
  const rows = await db.execute<{ count: number; reset_at: string }>(sql`
    select count, reset_at from rate_limits where key = ${key} and reset_at > now()`);
  const row = rows[0];
  return row ? { count: Number(row.count), retryAfter: retryAfter(row.reset_at) } : { count: 0, retryAfter: 0 };
}

export async function clear(db: Db, key: string): Promise<void> {
  await db.execute(sql`delete from rate_limits where key = ${key}`);
}

export function tooManyRequests(retryAfterSeconds: number, messageKey: MessageKey = 'api.error.rateLimited'): ApiError {
  return new ApiError(429, 'rate_limited', messageKey, { headers: { 'retry-after': String(retryAfterSeconds) } });
}

/** Throws 429 when any of the keys has already reached its limit (checked before doing the work). */
export async function assertUnder(db: Db, checks: readonly { key: string; limit: Limit }[]): Promise<void> {
  for (const { key, limit } of checks) {
    const state = await peek(db, key);
    if (state.count >= limit.max) throw tooManyRequests(state.retryAfter);
  }
}

/** Counts a hit on each key and throws 429 (with `messageKey`, if given) when one goes over its limit. */
export async function consume(db: Db, checks: readonly { key: string; limit: Limit }[], messageKey?: MessageKey): Promise<void> {
  // Old windows are only history; sweep them now and then rather than on every hit. Rows another
  // request holds are skipped, not waited for: the sweep never holds one row while waiting for another.
  if (Math.random() < 0.02)
    await db.execute(sql`delete from rate_limits where key in (select key from rate_limits where reset_at < now() - interval '1 day' for update skip locked)`);
  const counted = await hitAll(db, checks);
  let worst = 0;
  for (const { key, limit } of checks) {
    const state = counted.get(key)!;
    if (state.count > limit.max) worst = Math.max(worst, state.retryAfter);
  }
  if (worst) throw tooManyRequests(worst, messageKey);
}

/**
 * Takes back one hit on each key (a counted attempt that did not happen after all). One statement
 * per key, each holding one row: a statement over several rows would lock them in the order the
 * database reads them, which can cross the sorted order `hitAll` locks them in.
 */
export async function refund(db: Db, keys: readonly string[]): Promise<void> {
  await Promise.all([...new Set(keys)].map((key) => db.execute(sql`update rate_limits set count = count - 1 where key = ${key} and count > 0`)));
}

/** Keys never hold a raw e-mail or IP address, only a hash of it. */
export function limitKey(kind: string, subject: string): string {
  return `${kind}:${createHash('sha256').update(subject.trim().toLowerCase()).digest('base64url').slice(0, 22)}`;
}

/** The key of a per-address limit: the client's address group (IPv4 /32, IPv6 /64), so rotating addresses within one's own /64 gains nothing. */
export const addressKey = (kind: string, address: string): string => limitKey(kind, addressGroup(address));

/** The key of a per-e-mail limit: the mailbox (normaliseRecipient), so `victim+1@` … count as `victim@`. */
export const recipientKey = (kind: string, email: string): string => limitKey(kind, normaliseRecipient(email));
