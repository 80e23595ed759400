/**
 * The day's ledger (src/pages/store-host/list-booking-manage.astro) repeats two pieces of markup
 * hundreds of times: a booking's row and a table's line on the timeline. As Astro components they
 * were the largest part of the page's rendering — a day of 200 bookings at 30 tables made tens of
 * thousands of stream chunks and 400 component instances per request, and the tablet redraws the
 * ledger on every booking at the store. Built here as strings, the page inserts them whole.
 *
 * The markup is the components' own, byte for byte (the same escaping: ./html.ts), so tests, styles
 * and the live script read it unchanged. The booking's cancel and change forms stay components
 * (src/components/storehost/CancelBookingForm.astro, ChangeBookingForm.astro): at most one row has
 * one open, and `ledgerRows` says where it goes.
 *
 * Each row and line is encoded to UTF-8 on its own and handed to Astro as bytes, which it copies
 * into the response as they are. Joined into one string first, the ledger's 300 KB would be copied
 * and encoded whole (as two-byte text, for its Japanese) several times over — most of the
 * request's CPU time on a busy machine; a row at a time stays in the processor's cache.
 */
import type { T } from '../../i18n';
import type { Locale } from '../../i18n/locales';
import type { StoreBookingJson } from '../../lib/contract/staff';
import { releasable } from '../../lib/contract/late';
import { formatTime } from '../../lib/datetime';
import type { Bar, TableLine } from '../staff/ledger';
import { attr, text } from './html';
import { BoundedCache } from '../../lib/boundedCache';

/** A time as the ledger writes it under its business day (times after midnight are the next day's). */
type Time = (at: Date | string | number) => string;

/** Markup kept for this many rows and table lines (about a kilobyte each): a few busy days of many stores, in their staff's languages (about 10 MB at most). */
export const keptRows = new BoundedCache<string, Buffer>(8_000);
export const keptLines = new BoundedCache<string, Buffer>(2_000);

/** What is kept under `key`, or made and kept; the oldest go beyond the cache's bound. */
function kept(store: BoundedCache<string, Buffer>, key: string, make: () => string): Buffer {
  let bytes = store.get(key);
  if (bytes === undefined) {
    bytes = Buffer.from(make());
    store.set(key, bytes);
  }
  return bytes;
}

export interface RowOptions {
  /** The ledger's address (store, day) with no form open: where the rows' forms post. */
  action: string;
  /** Now, in milliseconds. */
  at: number;
  /** The business day shown, which `time` writes times under. */
  date: string;
  locale: Locale;
  time: Time;
  t: T;
  /** Whether a booking's change or cancel form is open (asked for by the address, or refused). */
  changing: (id: number) => boolean;
  cancelling: (id: number) => boolean;
}

/** The ledger's address with one booking's change or cancel form open, scrolled to it. */
const openHref = (action: string, form: 'change' | 'cancel', id: number) => `${action}${action.includes('?') ? '&' : '?'}${form}=${id}#${form}-${id}`;

/** Where a row's open cancel or change form goes, between the row's actions and its end. */
export interface OpenForm {
  booking: StoreBookingJson;
  cancel: boolean;
  change: boolean;
}

/** What "now" changes in a row: whether it has begun (a no-show may be marked, no change made), is over (no cancel), its mark may be undone, its table released. */
interface RowState {
  begun: boolean;
  over: boolean;
  undo: boolean;
  release: boolean;
}

function rowState(b: StoreBookingJson, at: number): RowState {
  const start = new Date(b.start);
  const end = new Date(b.end);
  const graceMinutes = Math.round((Date.parse(b.release_from) - start.getTime()) / 60_000);
  return {
    begun: start.getTime() <= at,
    over: end.getTime() <= at,
    undo: b.undo_until !== null && Date.parse(b.undo_until) > at,
    release: releasable({ start, end, status: b.status, attendance: b.attendance, graceMinutes }, new Date(at)),
  };
}

/**
 * The day's rows in order, as UTF-8 markup, with a marker where a booking's open cancel or change
 * form is drawn (the rows around it joined into one piece each).
 *
 * A row's markup is kept by all it is made from — the booking as the store API gives it, what now
 * changes in it, the language, the day and the address — so the tablet's redraw after a booking
 * makes only that booking's row again, and an old row is never shown: anything changed is another key.
 */
export function ledgerRows(items: readonly StoreBookingJson[], o: RowOptions): (Uint8Array | OpenForm)[] {
  const parts: (Uint8Array | OpenForm)[] = [];
  let run: Uint8Array[] = [];
  for (const b of items) {
    const state = rowState(b, o.at);
    const open = b.status === 'confirmed' && b.attendance === null;
    const form = { booking: b, cancel: open && !state.over && o.cancelling(b.id), change: open && !state.begun && o.changing(b.id) };
    if (form.cancel || form.change) {
      run.push(Buffer.from(row(b, state, form, o)));
      parts.push(Buffer.concat(run), form);
      run = [Buffer.from('</div></li>')];
    } else {
      run.push(
        kept(keptRows, `${o.locale}\u0000${o.date}\u0000${o.action}\u0000${JSON.stringify(state)}\u0000${JSON.stringify(b)}`, () => row(b, state, null, o)),
      );
    }
  }
  parts.push(Buffer.concat(run));
  return parts.filter((p) => !(p instanceof Uint8Array) || p.length > 0);
}

/**
 * One booking on the day's ledger: when, who, how many, at which table, their wish and note, its
 * mark; and what the door can do about it while it is open — mark it arrived or no-show, cancel it
 * for the store with a reason, change its time, party or table before it starts, undo a fresh mark.
 * Each action is a plain form posting to the ledger. The cancel and change forms are drawn only for
 * the booking the address names; closed, each is a link (a day has hundreds of rows). With a form
 * open, the markup stops before the end of the row's actions, and the form and `</div></li>` follow.
 */
function row(b: StoreBookingJson, state: RowState, form: OpenForm | null, { action, time, t }: RowOptions): string {
  const status =
    b.status === 'cancelled'
      ? { text: b.store_cancel_reason !== null ? t('storehost.ledger.storeCancelled') : t('booking.status.cancelled'), tone: 'badge-ghost' }
      : b.attendance === 'arrived'
        ? { text: t('storehost.ledger.arrived'), tone: 'badge-success' }
        : b.attendance === 'no_show'
          ? { text: t('storehost.ledger.noShow'), tone: 'badge-error' }
          : { text: t('storehost.ledger.waiting'), tone: 'badge-info' };
  const open = b.status === 'confirmed' && b.attendance === null;
  /** A stay not over yet may be cancelled by the store; one not begun may be changed. */
  const cancellable = !state.over;
  const changeable = !state.begun;
  const c = b.contact;
  let h =
    `<li${attr('class', b.status === 'cancelled' ? 'ledger-row border border-dashed border-base-content/30' : 'ledger-row')}${attr('id', `booking-${b.id}`)}${attr('data-booking', b.id)} data-testid="ledger-booking">` +
    `<div class="ledger-line"><p class="ledger-time">${text(time(b.start))}<span class="ledger-until">〜${text(time(b.end))}</span></p>` +
    `<div class="min-w-40 grow"><p class="text-lg font-semibold">${text(c.name)}${c.guest ? `<span class="badge badge-ghost badge-sm ms-1">${text(t('storehost.ledger.guest'))}</span>` : ''}</p>` +
    (c.name_kana ? `<p class="text-sm text-base-content/80">${text(c.name_kana)}</p>` : '') +
    (c.phone ? `<p class="text-sm"><a class="link"${attr('href', `tel:${c.phone}`)}>${text(c.phone)}</a></p>` : '') +
    `</div><dl class="ledger-facts"><dt>${text(t('field.party_size'))}</dt><dd class="font-semibold" data-testid="booking-party">${text(t('booking.partyCount', { count: b.party_size }))}</dd>` +
    `<dt>${text(t('storehost.ledger.table'))}</dt><dd class="font-semibold" data-testid="booking-table">${text(b.table.label)} (${text(t(`booking.seat.${b.table.kind}`))})</dd>` +
    (b.seat_preference ? `<dt>${text(t('storehost.ledger.seatWish'))}</dt><dd>${text(t(`booking.seat.${b.seat_preference}`))}</dd>` : '') +
    `</dl><p class="ms-auto"><span${attr('class', `badge ${status.tone}`)}>${text(status.text)}</span></p></div>` +
    (b.note ? `<p class="mt-2 rounded bg-base-200 px-2 py-1 text-sm"><span class="font-medium">${text(t('field.note'))}:</span> ${text(b.note)}</p>` : '') +
    (b.store_cancel_reason ? `<p class="mt-1 text-sm text-base-content/80">${text(b.store_cancel_reason)}</p>` : '') +
    lateNotice(b, state, action, t);
  if (state.undo) {
    h += `<form method="post"${attr('action', action)} class="mt-2"><input type="hidden" name="action" value="undo"><input type="hidden" name="booking"${attr('value', b.id)}><button type="submit" class="btn btn-outline">${text(t('storehost.ledger.undo'))}</button></form>`;
  }
  if (!open) return `${h}</li>`;
  // One form, the mark in the button pressed: a no-show only once the start has come.
  h +=
    `<div class="ledger-actions"><form method="post"${attr('action', action)} class="flex flex-wrap gap-2"><input type="hidden" name="booking"${attr('value', b.id)}>` +
    `<button type="submit" name="mark" value="arrived" class="btn btn-success">${text(t('storehost.ledger.markArrived'))}</button>` +
    (state.begun ? `<button type="submit" name="mark" value="no_show" class="btn">${text(t('storehost.ledger.markNoShow'))}</button>` : '') +
    '</form>' +
    (cancellable && !form?.cancel
      ? `<a${attr('href', openHref(action, 'cancel', b.id))} class="btn btn-ghost">${text(t('storehost.ledger.cancel'))}</a>`
      : '') +
    (changeable && !form?.change ? `<a${attr('href', openHref(action, 'change', b.id))} class="btn btn-ghost">${text(t('storehost.change.open'))}</a>` : '');
  return form ? h : `${h}</div></li>`;
}

/**
 * A row's word from the diner and what the door can do about a party that has not come: the latest
 * "on my way" / "late" notice with the time it was sent (「10分遅れ (21:05 連絡)」), and, once the
 * store's grace period is over with nobody arrived and time left in the stay, 「席を解放」 — the
 * no-show mark, which frees the rest of the stay for others (src/server/staff/marks.ts).
 */
function lateNotice(b: StoreBookingJson, state: RowState, action: string, t: T): string {
  const late = b.status === 'confirmed' && b.attendance === null ? b.late : null;
  if (!late && !state.release) return '';
  const graceMinutes = Math.round((Date.parse(b.release_from) - Date.parse(b.start)) / 60_000);
  return (
    '<div class="mt-2 flex flex-wrap items-center gap-2">' +
    (late
      ? `<p class="badge badge-warning h-auto py-1" data-testid="late-notice">${text(t(`storehost.ledger.late.${late.notice}`, { time: formatTime(new Date(late.at), t) }))}</p>`
      : '') +
    (state.release
      ? `<form method="post"${attr('action', action)} class="flex flex-wrap items-center gap-2"><input type="hidden" name="booking"${attr('value', b.id)}>` +
        `<span class="text-sm text-base-content/80">${text(t('storehost.ledger.releaseHint', { minutes: graceMinutes }))}</span>` +
        `<button type="submit" name="mark" value="no_show" class="btn btn-warning">${text(t('storehost.ledger.release'))}</button></form>`
      : '') +
    '</div>'
  );
}

/** A bar's place on the timeline's 1000-wide scale: a tenth of a unit is finer than any screen shows. */
export const timelineX = (fraction: number) => Math.round(fraction * 10_000) / 10;

/** What a bar holds, for its tooltip and the table's spoken summary. */
const barText = (b: Bar, time: Time, t: T) => `${time(b.start)}–${time(b.end)} ${b.kind === 'block' ? t('storehost.ledger.block') : b.label}`;

/**
 * Each table's line on the timeline (the items of its list): its label, and its bookings, blocks
 * and walk-ins as bars with "now" marked (`nowX` on the 1000-wide scale, null when not today).
 */
export function timelineLines(tables: readonly TableLine[], nowX: number | null, date: string, locale: Locale, time: Time, t: T): Uint8Array {
  const now = Buffer.from(
    `${nowX === null ? '' : `<line${attr('x1', nowX)}${attr('x2', nowX)} y1="0" y2="28" class="stroke-error" stroke-width="3"></line>`}</svg></li>`,
  );
  const walkInOnly = `<span class="sr-only"> (${text(t('storehost.ledger.walkInOnly'))})</span>`;
  // Each line is kept up to "now", which moves on every few seconds; its bars are fractions of the day's window, so a moved window is another key.
  const lines = tables.map((table) =>
    kept(keptLines, `${locale}\u0000${date}\u0000${JSON.stringify(table)}`, () => {
      const texts = table.bars.map((b) => barText(b, time, t));
      const bars = table.bars
        .map(
          (b, i) =>
            `<rect${attr('x', timelineX(b.left))}${attr('width', Math.max(timelineX(b.width), 2))} y="3" height="22" rx="3"${attr('class', b.kind === 'block' ? 'fill-neutral/60' : 'fill-primary')}><title>${text(texts[i]!)}</title></rect>`,
        )
        .join('');
      return (
        `<li class="flex items-center" data-testid="timeline-table"><span class="w-20 shrink-0 truncate text-sm font-medium">${text(table.label)}${table.online ? '' : walkInOnly}</span>` +
        `<svg class="h-7 grow rounded bg-base-200" viewBox="0 0 1000 28" preserveAspectRatio="none" role="img"${attr('aria-label', `${table.label}: ${texts.join(', ') || '—'}`)}>${bars}`
      );
    }),
  );
  return Buffer.concat(lines.flatMap((line) => [line, now]));
}
