/**
 * Bookings: create, read, change and cancel, for signed-in diners and for guests holding an edit
 * token. Every change runs in one transaction that first locks the store's row, so bookings at one
 * store are decided one after another on fresh data (exactly K winners for K free tables); the
 * exclusion constraints of the schema remain the final word should anything slip past.
 */
import { randomInt } from 'node:crypto';
import { and, asc, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from './db/client';
import { bookings, stores, storeTables, type TableKind } from './db/schema';
import {
  bookableDates,
  businessDate,
  freeTablesFor,
  loadStoreStates,
  MAX_PARTY,
  smallestFit,
  startProblem,
  storeDaySlots,
  type StoreState,
  type TableInfo,
} from './availability';
import { publishAvailabilityChange } from './events';
import { queueMail } from './mail';
import { hashToken, newToken } from './sessions';
import { ApiError, notFound } from './http/api';
import { dictionaries, pick, type T } from '../i18n';
import { idSchema, isKana, normalisePhone, safeString } from '../lib/validation';
import { formatDay, formatStay, MINUTE_MS, toTokyoIso, tokyoInstant } from '../lib/datetime';
import { buildIcs } from '../lib/ics';
import { publicOrigin } from './config';
import { cookieOptions } from './http/cookies';
import type { AstroCookieSetOptions } from 'astro';

export const TABLE_KINDS = ['counter', 'table', 'private_room', 'tatami'] as const satisfies readonly TableKind[];
export const NOTE_MAX = 200;

// ---------------------------------------------------------------------------------------------
// Input schemas (the API and the pages validate with these)

const isoStart = z.iso.datetime({ offset: true });

const choices = {
  party_size: z.number().int().min(1).max(MAX_PARTY),
  seat_preference: z.enum(TABLE_KINDS).nullish(),
  note: safeString().max(NOTE_MAX).optional(),
};

export const createSchema = z.object({
  store_id: idSchema,
  start: isoStart,
  ...choices,
});

export const editSchema = z
  .object({ start: isoStart.optional(), ...choices, party_size: choices.party_size.optional() })
  .refine((v) => Object.values(v).some((x) => x !== undefined), { message: 'booking.error.nothingToChange', path: ['_'] });

// Kana and phone rules are shared with account forms (src/lib/validation).
export const guestSchema = createSchema.extend({
  name: safeString().trim().min(1).max(50),
  name_kana: safeString().trim().min(1).max(50).refine(isKana, { message: 'booking.validation.kana' }),
  phone: safeString()
    .trim()
    .min(1)
    .max(20)
    .refine((v) => normalisePhone(v) !== null, { message: 'booking.validation.phone' }),
  email: safeString().max(254).pipe(z.email()),
});

export type CreateInput = z.infer<typeof createSchema>;
export type EditInput = z.infer<typeof editSchema>;
export type GuestInput = z.infer<typeof guestSchema>;

// ---------------------------------------------------------------------------------------------
// Who is asking

export type Actor = { kind: 'user'; userId: number; email: string; name: string } | { kind: 'guest'; token: string };

export interface Context {
  t: T;
  locale: string;
  /** Origin of the site, for links in mails. */
  origin: string;
  now?: Date;
}

// ---------------------------------------------------------------------------------------------
// What a booking looks like to its owner

export interface BookingView {
  id: number;
  code: string;
  storeId: number;
  storeName: string;
  storeAddress: string;
  cancellationPolicy: string;
  start: Date;
  end: Date;
  partySize: number;
  status: 'confirmed' | 'cancelled';
  seatPreference: TableKind | null;
  tableKind: TableKind;
  /** Internal: never sent to clients. */
  tableId: number;
  note: string;
  guest: { name: string; nameKana: string; phone: string; email: string } | null;
}

/** The JSON the API answers (DESIGN §6), times in Tokyo. */
export function bookingJson(b: BookingView, now = new Date()) {
  return {
    id: b.id,
    code: b.code,
    store_id: b.storeId,
    store_name: b.storeName,
    start: toTokyoIso(b.start),
    end: toTokyoIso(b.end),
    party_size: b.partySize,
    status: b.status,
    seat_preference: b.seatPreference,
    table_kind: b.tableKind,
    note: b.note,
    cancellation_policy: b.cancellationPolicy,
    changeable: b.status === 'confirmed' && b.start.getTime() > now.getTime(),
    ...(b.guest ? { guest: { name: b.guest.name, name_kana: b.guest.nameKana, phone: b.guest.phone, email: b.guest.email } } : {}),
  };
}

const viewColumns = {
  id: bookings.id,
  code: bookings.code,
  storeId: bookings.storeId,
  storeName: stores.name,
  storeAddress: stores.address,
  cancellationPolicy: stores.cancellationPolicy,
  start: bookings.startsAt,
  end: bookings.endsAt,
  partySize: bookings.partySize,
  status: bookings.status,
  seatPreference: bookings.seatPreference,
  tableKind: storeTables.kind,
  tableId: bookings.tableId,
  note: bookings.note,
  guestName: bookings.guestName,
  guestNameKana: bookings.guestNameKana,
  guestPhone: bookings.guestPhone,
  guestEmail: bookings.guestEmail,
};

type ViewRow = {
  [K in keyof typeof viewColumns]: (typeof viewColumns)[K]['_']['notNull'] extends true
    ? (typeof viewColumns)[K]['_']['data']
    : (typeof viewColumns)[K]['_']['data'] | null;
};

function toView(r: ViewRow): BookingView {
  return {
    id: r.id,
    code: r.code,
    storeId: r.storeId,
    storeName: r.storeName,
    storeAddress: r.storeAddress,
    cancellationPolicy: r.cancellationPolicy,
    start: r.start,
    end: r.end,
    partySize: r.partySize,
    status: r.status,
    seatPreference: r.seatPreference,
    tableKind: r.tableKind,
    tableId: r.tableId,
    note: r.note,
    guest:
      r.guestName !== null
        ? { name: r.guestName, nameKana: r.guestNameKana ?? '', phone: r.guestPhone ?? '', email: r.guestEmail ?? '' }
        : null,
  };
}

/**
 * The condition that makes a booking the actor's: their user id, or, for a guest, the hash of the
 * edit token on a guest booking that has not ended yet (the token dies with the stay).
 */
function ownedBy(actor: Actor, now: Date) {
  if (actor.kind === 'user') return eq(bookings.userId, actor.userId);
  if (!actor.token || actor.token.length > 200) return sql`false`;
  return and(isNull(bookings.userId), eq(bookings.guestTokenHash, hashToken(actor.token)), gt(bookings.endsAt, now));
}

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
type Q = Db | Tx;

async function findOwned(q: Q, id: number, actor: Actor, now: Date): Promise<BookingView | null> {
  const rows = await q
    .select(viewColumns)
    .from(bookings)
    .innerJoin(stores, eq(stores.id, bookings.storeId))
    .innerJoin(storeTables, eq(storeTables.id, bookings.tableId))
    .where(and(eq(bookings.id, id), ownedBy(actor, now)))
    .limit(1);
  return rows[0] ? toView(rows[0]) : null;
}

/** The actor's booking, or 404 (someone else's booking is indistinguishable from none). */
export async function getBooking(db: Db, id: number, actor: Actor, now = new Date()): Promise<BookingView> {
  const found = await findOwned(db, id, actor, now);
  if (!found) throw notFound();
  return found;
}

/** A signed-in diner's bookings, newest start first. */
export async function listBookings(db: Db, userId: number): Promise<BookingView[]> {
  const rows = await db
    .select(viewColumns)
    .from(bookings)
    .innerJoin(stores, eq(stores.id, bookings.storeId))
    .innerJoin(storeTables, eq(storeTables.id, bookings.tableId))
    .where(eq(bookings.userId, userId))
    .orderBy(desc(bookings.startsAt), asc(bookings.id))
    .limit(200);
  return rows.map(toView);
}

// ---------------------------------------------------------------------------------------------
// Rules shared by create and edit

const CODE_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';

/** `SG-7K3Q9P`: 32^6 ≈ 10^9 codes, without look-alike characters (0/O, 1/I). */
export function newBookingCode(): string {
  let s = '';
  for (let i = 0; i < 6; i++) s += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return `SG-${s}`;
}

function fieldError(t: T, status: number, code: string, field: string, key: string, params: Record<string, unknown> = {}): ApiError {
  return new ApiError(status, code, 'validation.failed', { fields: { [field]: t(key, params as Record<string, string>) } });
}

const STORE_NOT_FOUND = (t: T) =>
  new ApiError(404, 'not_found', 'booking.error.storeNotFound', { fields: { store_id: t('booking.error.storeNotFound') } });

/** Locks the store's row for the rest of the transaction and loads what the rules need around `start`. */
async function lockAndLoad(tx: Tx, storeId: number, start: Date): Promise<StoreState | null> {
  const locked = await tx.execute(sql`select id from ${stores} where ${stores.id} = ${storeId} for update`);
  if (!locked.length) return null;
  // Only bookings overlapping a stay starting at `start` matter (stays are far shorter than 12 hours).
  const states = await loadStoreStates(tx as unknown as Db, [storeId], start, new Date(start.getTime() + 12 * 60 * MINUTE_MS));
  return states.get(storeId) ?? null;
}

function checkStart(t: T, state: StoreState, start: Date, now: Date) {
  const problem = startProblem(state, start, now);
  if (problem) throw fieldError(t, 400, 'validation_failed', 'start', `booking.error.start.${problem}`);
}

function checkParty(t: T, state: StoreState, party: number) {
  const largest = Math.max(0, ...state.tables.map((x) => x.maxParty));
  if (party > largest) throw fieldError(t, 400, 'validation_failed', 'party_size', 'booking.error.partyTooBig', { max: largest });
}

/** Free starts that day for that party, the requested time's neighbours first. */
export async function nextFreeSlots(db: Db, storeId: number, start: Date, party: number, now = new Date()) {
  const slots = (await storeDaySlots(db, storeId, businessDate(start), party, now)) ?? [];
  const free = slots.filter((s) => s.freeTables > 0);
  const after = free.filter((s) => s.start.getTime() >= start.getTime());
  const before = free.filter((s) => s.start.getTime() < start.getTime()).reverse();
  return [...after, ...before]
    .slice(0, 6)
    .sort((a, b) => a.start.getTime() - b.start.getTime())
    .map((s) => ({ start: toTokyoIso(s.start), end: toTokyoIso(s.end), free_tables: s.freeTables }));
}

async function slotTaken(db: Db, storeId: number, start: Date, party: number, now: Date): Promise<ApiError> {
  return new ApiError(409, 'slot_taken', 'booking.error.slotTaken', { extra: { next_slots: await nextFreeSlots(db, storeId, start, party, now) } });
}

/** No fitting table is free: answered as 409 slot_taken once the transaction has ended. */
class NoTable {}

const userOverlap = () => new ApiError(409, 'overlapping_booking', 'booking.error.overlapping');

/** SQLSTATE and constraint of a database error, looking through Drizzle's wrapping. */
function pgError(err: unknown): { code?: string; constraint?: string } {
  let e = err as { code?: unknown; constraint_name?: unknown; cause?: unknown } | undefined;
  for (let i = 0; e && i < 5; i++) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return { code: e.code, constraint: typeof e.constraint_name === 'string' ? e.constraint_name : undefined };
    e = e.cause as typeof e;
  }
  return {};
}

/** Picks a table for a stay: keeps `keep` when it still fits, is free and matches the preference; otherwise the smallest free fit. */
function pickTable(state: StoreState, start: Date, end: Date, party: number, preference: TableKind | null | undefined, keep?: number): TableInfo | null {
  const free = freeTablesFor(state.tables, state.busy, start, end, party);
  const current = keep === undefined ? undefined : free.find((x) => x.id === keep);
  if (current && (!preference || current.kind === preference || !free.some((x) => x.kind === preference))) return current;
  return smallestFit(free, preference);
}

// ---------------------------------------------------------------------------------------------
// Create

export interface Created {
  booking: BookingView;
  /** Only for guest bookings, shown once. */
  editToken?: string;
}

export async function createBooking(db: Db, input: CreateInput | GuestInput, actor: Actor, ctx: Context): Promise<Created> {
  const { t } = ctx;
  const now = ctx.now ?? new Date();
  const start = new Date(input.start);
  const guest = actor.kind === 'guest' ? (input as GuestInput) : null;
  const editToken = guest ? newToken() : undefined;

  let id: number | undefined;
  for (let attempt = 0; id === undefined; attempt++) {
    try {
      id = await db.transaction(async (tx) => {
        const state = await lockAndLoad(tx, input.store_id, start);
        if (!state) throw STORE_NOT_FOUND(t);
        checkStart(t, state, start, now);
        checkParty(t, state, input.party_size);
        const end = new Date(start.getTime() + state.stayMinutes * MINUTE_MS);
        const table = pickTable(state, start, end, input.party_size, input.seat_preference);
        if (!table) throw new NoTable();
        const [row] = await tx
          .insert(bookings)
          .values({
            code: newBookingCode(),
            storeId: input.store_id,
            tableId: table.id,
            userId: actor.kind === 'user' ? actor.userId : null,
            partySize: input.party_size,
            startsAt: start,
            endsAt: end,
            seatPreference: input.seat_preference ?? null,
            note: input.note?.trim() ?? '',
            ...(guest
              ? {
                  guestName: guest.name,
                  guestNameKana: guest.name_kana,
                  guestPhone: normalisePhone(guest.phone)!,
                  guestEmail: guest.email,
                  guestTokenHash: hashToken(editToken!),
                }
              : {}),
          })
          .returning({ id: bookings.id });
        return row!.id;
      });
    } catch (err) {
      if (err instanceof NoTable) throw await slotTaken(db, input.store_id, start, input.party_size, now);
      const pg = pgError(err);
      if (pg.code === '23505' && pg.constraint?.includes('code') && attempt < 5) continue;
      if (pg.code === '23P01') {
        if (pg.constraint === 'bookings_no_overlap_per_user_store') throw userOverlap();
        throw await slotTaken(db, input.store_id, start, input.party_size, now);
      }
      throw err;
    }
  }

  await publishAvailabilityChange(db, [input.store_id]);
  const booking = (await findOwned(db, id, actor.kind === 'guest' ? { kind: 'guest', token: editToken! } : actor, now))!;
  await sendConfirmation(db, booking, actor.kind === 'user' ? actor.email : guest!.email, ctx, 'created', editToken);
  return { booking, editToken };
}

// ---------------------------------------------------------------------------------------------
// Edit and cancel

export async function editBooking(db: Db, id: number, input: EditInput, actor: Actor, ctx: Context): Promise<BookingView> {
  const { t } = ctx;
  const now = ctx.now ?? new Date();
  let storeId: number | undefined;
  let changed: { start: Date; party: number } | undefined;
  try {
    await db.transaction(async (tx) => {
      const seen = await findOwned(tx, id, actor, now);
      if (!seen) throw notFound();
      storeId = seen.storeId;
      const start = input.start ? new Date(input.start) : seen.start;
      const state = await lockAndLoad(tx, seen.storeId, start);
      // Read again under the store lock: a concurrent change or cancellation has committed by now.
      const current = await findOwned(tx, id, actor, now);
      if (!state || !current) throw notFound();
      if (current.status !== 'confirmed' || current.start.getTime() <= now.getTime()) {
        throw new ApiError(409, 'not_changeable', 'booking.error.notChangeable');
      }
      const party = input.party_size ?? current.partySize;
      const preference = input.seat_preference === undefined ? current.seatPreference : input.seat_preference;
      changed = { start, party };
      if (start.getTime() !== current.start.getTime()) checkStart(t, state, start, now);
      checkParty(t, state, party);
      // This booking's own hold must not count against it.
      const freeState: StoreState = {
        ...state,
        busy: state.busy.filter((b) => !(b.tableId === current.tableId && b.start.getTime() === current.start.getTime())),
      };
      const end = new Date(start.getTime() + state.stayMinutes * MINUTE_MS);
      const table = pickTable(freeState, start, end, party, preference, current.tableId);
      if (!table) throw new NoTable();
      // One UPDATE: the old table is held until the new one is secured, in the same statement.
      await tx
        .update(bookings)
        .set({
          tableId: table.id,
          startsAt: start,
          endsAt: end,
          partySize: party,
          seatPreference: preference ?? null,
          ...(input.note !== undefined ? { note: input.note.trim() } : {}),
          updatedAt: now,
        })
        .where(eq(bookings.id, id));
    });
  } catch (err) {
    if (err instanceof NoTable) throw await slotTaken(db, storeId!, changed!.start, changed!.party, now);
    const pg = pgError(err);
    if (pg.code === '23P01') {
      if (pg.constraint === 'bookings_no_overlap_per_user_store') throw userOverlap();
      throw await slotTaken(db, storeId!, changed!.start, changed!.party, now);
    }
    throw err;
  }
  await publishAvailabilityChange(db, [storeId!]);
  const booking = (await findOwned(db, id, actor, now))!;
  const to = actor.kind === 'user' ? actor.email : booking.guest?.email;
  if (to) await sendConfirmation(db, booking, to, ctx, 'changed');
  return booking;
}

/** Cancels until the start time; cancelling twice is harmless. */
export async function cancelBooking(db: Db, id: number, actor: Actor, ctx: Context): Promise<BookingView> {
  const now = ctx.now ?? new Date();
  const current = await findOwned(db, id, actor, now);
  if (!current) throw notFound();
  if (current.status === 'cancelled') return current;
  if (current.start.getTime() <= now.getTime()) throw new ApiError(409, 'not_changeable', 'booking.error.notCancellable');
  const updated = await db
    .update(bookings)
    .set({ status: 'cancelled', cancelledAt: now, updatedAt: now })
    .where(and(eq(bookings.id, id), eq(bookings.status, 'confirmed'), gt(bookings.startsAt, now)))
    .returning({ id: bookings.id });
  if (updated.length) {
    await publishAvailabilityChange(db, [current.storeId]);
    const to = actor.kind === 'user' ? actor.email : current.guest?.email;
    const booking = { ...current, status: 'cancelled' as const };
    if (to) await sendConfirmation(db, booking, to, ctx, 'cancelled');
    return booking;
  }
  return (await findOwned(db, id, actor, now))!;
}

// ---------------------------------------------------------------------------------------------
// Guest edit links

/** Path of the guest edit page; the token goes in the query only in links, never in storage. */
export const guestEditPath = (storeId: number, bookingId: number) => `/store/${storeId}/booking-without/edit/${bookingId}`;

/** True while `token` opens guest booking `id` (it stops working when the stay ends). */
export async function guestTokenValid(db: Db, id: number, token: string, now = new Date()): Promise<BookingView | null> {
  return findOwned(db, id, { kind: 'guest', token }, now);
}

// ---------------------------------------------------------------------------------------------
// Mail

async function sendConfirmation(db: Db, b: BookingView, to: string, ctx: Context, kind: 'created' | 'changed' | 'cancelled', editToken?: string) {
  const { t, locale } = ctx;
  const lines = [
    t(`booking.mail.${kind}.intro`),
    '',
    `${t('booking.summary.code')}: ${b.code}`,
    `${t('booking.summary.store')}: ${b.storeName}`,
    `${t('booking.summary.time')}: ${formatStay(b.start, b.end, locale)}`,
    `${t('booking.summary.party')}: ${t('booking.partyCount', { count: b.partySize })}`,
  ];
  // The note is the booker's own text, and no address here is confirmed (a guest types any address;
  // accounts are not verified): never mail it, or anyone could send anything from no-reply@sugu.jp.
  if (b.note) lines.push(t('booking.mail.noteOnPage'));
  if (kind !== 'cancelled') {
    lines.push('', `${t('booking.summary.policy')}:`, b.cancellationPolicy || t('booking.policyNone'));
    if (editToken) {
      lines.push('', t('booking.mail.editLink'), `${ctx.origin}${guestEditPath(b.storeId, b.id)}?token=${encodeURIComponent(editToken)}`);
    } else if (!b.guest) {
      lines.push('', t('booking.mail.manage'), `${ctx.origin}/booking-list`);
    }
  }
  await queueMail(db, { to, subject: t(`booking.mail.${kind}.subject`, { code: b.code, store: b.storeName }), text: lines.join('\n'), kind: `booking_${kind}` });
}

// ---------------------------------------------------------------------------------------------
// Guest credentials in the browser

/**
 * The guest's key in the browser: an HttpOnly cookie holding the edit token, scoped by path to one
 * booking's edit page and its API, so it travels nowhere else and script can never read it.
 */
export const GUEST_COOKIE = 'sugu_guest';
/** The same key for the edit page (a second name: one response cannot set one name on two paths in Astro). */
export const GUEST_PAGE_COOKIE = 'sugu_guest_page';
/** After opening an edit link, the cookie lasts this long (never past the end of the stay). */
export const GUEST_LINK_COOKIE_MS = 60 * MINUTE_MS;

export const guestApiPath = (bookingId: number) => `/api/guest-bookings/${bookingId}`;

export interface CookieSetter {
  set(name: string, value: string, options: AstroCookieSetOptions): void;
}

/** Sets the guest cookie on the edit page's path and the API's path, valid for `ms` but never past the stay's end. */
export function setGuestCookies(cookies: CookieSetter, locals: { secure: boolean }, b: Pick<BookingView, 'id' | 'storeId' | 'end'>, token: string, ms: number, now = new Date()) {
  const maxAge = Math.floor(Math.min(ms, b.end.getTime() - now.getTime()) / 1000);
  if (maxAge <= 0) return;
  cookies.set(GUEST_PAGE_COOKIE, token, cookieOptions(locals, { path: guestEditPath(b.storeId, b.id), maxAge }));
  cookies.set(GUEST_COOKIE, token, cookieOptions(locals, { path: guestApiPath(b.id), maxAge }));
}

/** Request-scoped things the service needs, from an endpoint's or page's locals and URL. */
export function bookingContext(locals: { t: T; locale: string }): Context {
  return { t: locals.t, locale: locals.locale, origin: publicOrigin() };
}

/** The edit token from `X-Booking-Token`, else from the booking's HttpOnly cookie. A wrong one is just "not found". */
export function guestActor({ request, cookies }: { request: Request; cookies: { get(name: string): { value: string } | undefined } }): Actor {
  return { kind: 'guest', token: request.headers.get('x-booking-token') ?? cookies.get(GUEST_COOKIE)?.value ?? '' };
}

/** The booking as an .ics file for "add to calendar". */
export function bookingIcs(b: BookingView, ctx: Pick<Context, 't' | 'origin'>): string {
  return buildIcs({
    uid: `${b.code}@sugu.jp`,
    start: b.start,
    end: b.end,
    summary: ctx.t('booking.ics.summary', { store: b.storeName }),
    location: b.storeAddress,
    description: [`${ctx.t('booking.summary.code')}: ${b.code}`, `${ctx.t('booking.summary.party')}: ${ctx.t('booking.partyCount', { count: b.partySize })}`, b.note].filter(Boolean).join('\n'),
    url: `${ctx.origin}/store/${b.storeId}`,
  });
}

export function icsResponse(b: BookingView, ctx: Pick<Context, 't' | 'origin'>): Response {
  return new Response(bookingIcs(b, ctx), {
    headers: {
      'content-type': 'text/calendar; charset=utf-8',
      'content-disposition': `attachment; filename="sugu-${b.code}.ics"`,
      'cache-control': 'no-store',
    },
  });
}

// ---------------------------------------------------------------------------------------------
// What the booking pages show about a store

export interface BookingStore {
  id: number;
  name: string;
  cancellationPolicy: string;
  stayMinutes: number;
  /** The largest party one table takes. */
  maxParty: number;
  /** Seat kinds the store has, in a fixed order. */
  kinds: TableKind[];
}

export async function bookingStore(db: Db, storeId: number): Promise<BookingStore | null> {
  const [store] = await db
    .select({ id: stores.id, name: stores.name, cancellationPolicy: stores.cancellationPolicy, stayMinutes: stores.stayMinutes })
    .from(stores)
    .where(eq(stores.id, storeId));
  if (!store) return null;
  const tables = await db.select({ kind: storeTables.kind, maxParty: storeTables.maxParty }).from(storeTables).where(eq(storeTables.storeId, storeId));
  const kinds = TABLE_KINDS.filter((k) => tables.some((x) => x.kind === k));
  return { ...store, maxParty: Math.min(MAX_PARTY, Math.max(0, ...tables.map((x) => x.maxParty))), kinds };
}

/** Strings the booking widget needs, passed to it as props (islands ship no i18next). */
export const WIDGET_LABEL_PREFIXES = ['booking.form.', 'booking.seat.', 'booking.summary.', 'booking.guest.', 'booking.edit.', 'booking.complete.', 'booking.race', 'booking.list.'];
export const WIDGET_LABEL_KEYS = ['booking.partyCount', 'booking.policyNone', 'booking.title.complete', 'booking.error.network', 'booking.error.noteTooLong', 'booking.status.confirmed', 'booking.status.cancelled'];

export function widgetLabels(t: T): Record<string, string> {
  const keys = Object.keys(dictionaries.ja ?? {}).filter((k) => WIDGET_LABEL_PREFIXES.some((p) => k.startsWith(p)) || WIDGET_LABEL_KEYS.includes(k));
  return pick(t, keys);
}

/** The dates a diner may pick, labelled `11月21日(土)` (or the locale's form), the first one today. */
export function dateChoices(locale: string, now = new Date()): { value: string; label: string }[] {
  return bookableDates(now).map((value) => ({ value, label: formatDay(tokyoInstant(value, 12 * 60), locale) }));
}
