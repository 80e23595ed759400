/**
 * The 順番待ち's requests, shared by the JSON API and the plain pages: who asks (an account, and/or
 * a guest's token from `X-Queue-Token` or the entry's HttpOnly cookie), and joining within the
 * booking limits, which sets a guest's cookies on the entry's page and API paths.
 */
import type { AstroCookies } from 'astro';
import type { Db } from '../db/types';
import { cookieOptions } from '../http/cookies';
import { deviceHash, deviceId, withinBookingLimits } from '../bookingLimits';
import { queuePaths, type QueueJoinInput } from '../../lib/contract/queue';
import { joinQueue, type QueueActor } from './service';

export const QUEUE_COOKIE = 'sugu_queue';
/** The same key for the entry's page (a second name: one response cannot set one name on two paths in Astro). */
export const QUEUE_PAGE_COOKIE = 'sugu_queue_page';
/** A guest's browser keeps its key this long: a queue is a matter of hours. */
const QUEUE_COOKIE_S = 12 * 60 * 60;

interface Ctx {
  request: Request;
  cookies: AstroCookies;
  locals: App.Locals;
}

/** Who asks about an entry: the signed-in account, and the guest token sent or kept in a cookie. */
export function queueActor({ request, cookies, locals }: Ctx): QueueActor {
  const token = request.headers.get('x-queue-token') ?? cookies.get(QUEUE_COOKIE)?.value ?? cookies.get(QUEUE_PAGE_COOKIE)?.value ?? null;
  return { userId: locals.user?.id ?? null, email: locals.user?.email, token };
}

/** Sets a guest's key for the entry's page and API (HttpOnly, by the one cookie rule). */
export function setQueueCookies(cookies: AstroCookies, locals: { secure: boolean }, id: number, token: string) {
  cookies.set(QUEUE_PAGE_COOKIE, token, cookieOptions(locals, { path: queuePaths.page(id), maxAge: QUEUE_COOKIE_S }));
  cookies.set(QUEUE_COOKIE, token, cookieOptions(locals, { path: queuePaths.api(id), maxAge: QUEUE_COOKIE_S }));
}

/** Joins for the asker (an account, else a guest by device) within the limits bookings have. */
export async function joinFor(db: Db, storeId: number, input: QueueJoinInput, { cookies, locals }: Ctx): Promise<{ id: number; token: string | null }> {
  const user = locals.user;
  if (user) {
    return withinBookingLimits(
      db,
      { kind: 'user', userId: user.id },
      () => joinQueue(db, storeId, input, { kind: 'user', userId: user.id, email: user.email }, locals.locale),
      'queue',
    );
  }
  const device = deviceId(cookies, locals);
  const source = { kind: 'guest' as const, address: locals.clientAddress, email: input.email ?? '', phone: input.phone ?? '', device };
  const joined = await withinBookingLimits(
    db,
    source,
    () => joinQueue(db, storeId, input, { kind: 'guest', device: deviceHash(device) }, locals.locale),
    'queue',
  );
  if (joined.token) setQueueCookies(cookies, locals, joined.id, joined.token);
  return joined;
}
