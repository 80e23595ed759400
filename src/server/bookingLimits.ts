/**
 * How many bookings one source may make, counted in the database (rate_limits) so the limits hold
 * across instances (docs/production.md, "Abuse limits"). Without them one script took 590 tables in
 * 20 seconds, and mailed whatever it liked to any address typed in.
 *
 * - a guest: GUEST_BOOKINGS_PER_ADDRESS per hour from one client address, and BOOKINGS_PER_CONTACT
 *   per day for one e-mail address, one phone number and one device (the `sugu_device` cookie);
 * - a signed-in diner: BOOKINGS_PER_CONTACT per day for the account.
 *
 * A request is counted before it is tried, so a burst of simultaneous requests cannot slip past;
 * one that then fails (the slot was taken, the store closed) is given back, so a diner who loses a
 * race is not held against it.
 */
import { randomBytes } from 'node:crypto';
import type { AstroCookies } from 'astro';
import type { Db } from './db/types';
import { config } from './config';
import { addressKey, consume, limitKey, recipientKey, refund, type Limit } from './http/rateLimit';
import { cookieOptions } from './http/cookies';
import { normalisePhone } from '../lib/validation';
import { hashToken } from './sessions';
import { log } from './log';

const HOUR_MS = 60 * 60_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * A random id for the browser, so a guest's bookings on one device count together, and one device
 * cannot hold two overlapping tables at a store (src/server/bookings/create.ts). On every path: a
 * booking form posted without JavaScript (`/store/{id}/booking-without`, `/store/{id}/booking`) must
 * send the same id as the APIs, and one Astro response can set a name on one path only. It is not
 * a secret, but is kept on a booking only as its hash (`deviceHash`).
 */
export const DEVICE_COOKIE = 'sugu_device';
export const DEVICE_ID = /^[A-Za-z0-9_-]{22}$/;
const DEVICE_MAX_AGE_S = 365 * 24 * 60 * 60;

export type BookingSource = { kind: 'guest'; address: string; email: string; phone: string; device: string } | { kind: 'user'; userId: number };

/** The browser's device id from its cookie, or a new one set on the response. */
export function deviceId(cookies: AstroCookies, locals: { secure: boolean }): string {
  const known = cookies.get(DEVICE_COOKIE)?.value;
  if (known && DEVICE_ID.test(known)) return known;
  const id = randomBytes(16).toString('base64url');
  cookies.set(DEVICE_COOKIE, id, cookieOptions(locals, { maxAge: DEVICE_MAX_AGE_S }));
  return id;
}

/** What a booking keeps of its device: the id's hash, never the id. */
export const deviceHash = (id: string): string => hashToken(`device:${id}`);

/** What the limits count: bookings, or joins of a 順番待ち (each counted apart, by the same rule). */
export type LimitedAct = 'book' | 'queue';

function checks(source: BookingSource, act: LimitedAct): { key: string; limit: Limit }[] {
  const c = config();
  const perDay: Limit = { max: c.BOOKINGS_PER_CONTACT, windowMs: DAY_MS };
  if (source.kind === 'user') return [{ key: limitKey(`${act}-user`, String(source.userId)), limit: perDay }];
  return [
    { key: addressKey(`${act}-addr`, source.address), limit: { max: c.GUEST_BOOKINGS_PER_ADDRESS, windowMs: HOUR_MS } },
    // A queue's guest gives a phone number or an address, not always both: only what was given counts.
    ...(source.email ? [{ key: recipientKey(`${act}-email`, source.email), limit: perDay }] : []),
    ...(source.phone ? [{ key: limitKey(`${act}-phone`, normalisePhone(source.phone) ?? source.phone), limit: perDay }] : []),
    { key: limitKey(`${act}-device`, source.device), limit: perDay },
  ];
}

/**
 * Runs `book` within the limits of `source`: the attempt is counted first (so a burst of
 * simultaneous requests cannot slip past), refused with a translated 429 and Retry-After when it is
 * over a limit, and given back when it is refused or `book` throws — so the counts are bookings
 * made, and neither a diner who loses a race nor a stranger's refused burst uses up someone's e-mail.
 */
export async function withinBookingLimits<R>(db: Db, source: BookingSource, book: () => Promise<R>, act: LimitedAct = 'book'): Promise<R> {
  const counted = checks(source, act);
  const giveBack = () =>
    refund(
      db,
      counted.map((c) => c.key),
    ).catch(() => {});
  try {
    await consume(db, counted, act === 'queue' ? 'queue.error.busy' : 'booking.error.tooMany');
  } catch (error) {
    await giveBack();
    log('warn', act === 'queue' ? 'queue_limited' : 'booking_limited', { source: source.kind });
    throw error;
  }
  try {
    return await book();
  } catch (error) {
    await giveBack();
    throw error;
  }
}
