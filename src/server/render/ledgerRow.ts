/**
 * One booking of the door tablet's ledger (/list-booking-manage) as one string: time, guest, party,
 * table, seat wish, state, note, and the forms to mark it, undo a mark or cancel it for the store.
 * A busy day has two hundred of them on the page, each with its forms: as Astro markup every row
 * was dozens of expressions and stream chunks, most of the page's rendering time (the store-host
 * bench renders that day against its 50 ms budget). The markup is what the page's own template
 * drew, so the page's script, tests and styles see no difference.
 */
import type { T } from '../../i18n';
import type { StoreBookingJson } from '../../lib/contract/store';
import { NOTE_MAX } from '../../lib/contract/limits';
import { formatTime } from '../../lib/datetime';
import type { Bar, TableLine } from '../staff/ledger';
import { attr, text } from './html';

export interface LedgerRowContext {
  t: T;
  /** The form's action: the ledger itself, with its query. */
  action: string;
  /** Now, in ms: which marks are still offered, and until when an undo is. */
  at: number;
  /** The start or end of a booking as the ledger writes times (24:30 past midnight of its day). */
  time: (iso: string) => string;
}

/** The state badge of a booking: cancelled (by the store or the diner), arrived, no-show or waiting. */
export function ledgerStatus(b: StoreBookingJson, t: T): { text: string; tone: string } {
  if (b.status === 'cancelled') return { text: b.store_cancel_reason !== null ? t('storehost.ledger.storeCancelled') : t('booking.status.cancelled'), tone: 'badge-ghost' };
  if (b.attendance === 'arrived') return { text: t('storehost.ledger.arrived'), tone: 'badge-success' };
  if (b.attendance === 'no_show') return { text: t('storehost.ledger.noShow'), tone: 'badge-error' };
  return { text: t('storehost.ledger.waiting'), tone: 'badge-info' };
}

const hidden = (name: string, value: string | number) => `<input type="hidden"${attr('name', name)}${attr('value', value)}>`;

export function ledgerRowHtml(b: StoreBookingJson, { t, action, at, time }: LedgerRowContext): string {
  const status = ledgerStatus(b, t);
  const open = b.status === 'confirmed' && b.attendance === null;
  const cls = b.status === 'cancelled' ? 'rounded-box bg-base-100 p-3 shadow-sm border border-dashed border-base-content/30' : 'rounded-box bg-base-100 p-3 shadow-sm';
  let html =
    `<li${attr('class', cls)}${attr('data-booking', b.id)} data-testid="ledger-booking">` +
    `<div class="flex flex-wrap items-start gap-x-4 gap-y-1">` +
    `<p class="w-28 shrink-0 text-lg font-bold tabular-nums">${text(time(b.start))}<span class="block text-sm font-normal text-base-content/80">〜${text(time(b.end))}</span></p>` +
    `<div class="min-w-40 grow"><p class="text-lg font-semibold">${text(b.contact.name)}` +
    (b.contact.guest ? `<span class="badge badge-ghost badge-sm ms-1">${text(t('storehost.ledger.guest'))}</span>` : '') +
    `</p>` +
    (b.contact.name_kana ? `<p class="text-sm text-base-content/80">${text(b.contact.name_kana)}</p>` : '') +
    (b.contact.phone ? `<p class="text-sm"><a class="link"${attr('href', `tel:${b.contact.phone}`)}>${text(b.contact.phone)}</a></p>` : '') +
    `</div>` +
    `<dl class="grid grid-cols-[auto_1fr] gap-x-2 text-sm">` +
    `<dt class="text-base-content/80">${text(t('field.party_size'))}</dt><dd class="font-semibold">${text(t('booking.partyCount', { count: b.party_size }))}</dd>` +
    `<dt class="text-base-content/80">${text(t('storehost.ledger.table'))}</dt><dd class="font-semibold">${text(b.table.label)} (${text(t(`booking.seat.${b.table.kind}`))})</dd>` +
    (b.seat_preference ? `<dt class="text-base-content/80">${text(t('storehost.ledger.seatWish'))}</dt><dd>${text(t(`booking.seat.${b.seat_preference}`))}</dd>` : '') +
    `</dl>` +
    `<p class="ms-auto"><span${attr('class', `badge ${status.tone}`)}>${text(status.text)}</span></p>` +
    `</div>`;
  if (b.note) html += `<p class="mt-2 rounded bg-base-200 px-2 py-1 text-sm"><span class="font-medium">${text(t('field.note'))}:</span> ${text(b.note)}</p>`;
  if (b.store_cancel_reason) html += `<p class="mt-1 text-sm text-base-content/80">${text(b.store_cancel_reason)}</p>`;
  if (b.undo_until !== null && Date.parse(b.undo_until) > at) {
    html += `<form method="post"${attr('action', action)} class="mt-2">${hidden('action', 'undo')}${hidden('booking', b.id)}<button type="submit" class="btn btn-outline">${text(t('storehost.ledger.undo'))}</button></form>`;
  }
  if (open) {
    html +=
      `<div class="mt-2 flex flex-wrap items-start gap-2">` +
      `<form method="post"${attr('action', action)}>${hidden('booking', b.id)}<button type="submit" name="mark" value="arrived" class="btn btn-success">${text(t('storehost.ledger.markArrived'))}</button></form>`;
    if (Date.parse(b.start) <= at) {
      html += `<form method="post"${attr('action', action)}>${hidden('booking', b.id)}<button type="submit" name="mark" value="no_show" class="btn">${text(t('storehost.ledger.markNoShow'))}</button></form>`;
    }
    if (Date.parse(b.end) > at) {
      html +=
        `<details class="grow"><summary class="btn btn-ghost">${text(t('storehost.ledger.cancel'))}</summary>` +
        `<form method="post"${attr('action', action)} class="mt-2 flex flex-col gap-2">${hidden('booking', b.id)}` +
        `<label class="flex flex-col gap-1 text-sm"${attr('for', `reason-${b.id}`)}>${text(t('storehost.ledger.reason'))}` +
        `<textarea${attr('id', `reason-${b.id}`)} name="reason" required${attr('maxlength', NOTE_MAX)} class="textarea w-full"></textarea></label>` +
        `<button type="submit" name="mark" value="cancelled" class="btn btn-error self-start">${text(t('storehost.ledger.storeCancelled'))}</button>` +
        `</form></details>`;
    }
    html += `</div>`;
  }
  return html + `</li>`;
}

/** One table's line of the ledger's timeline: its label and an SVG bar per booking, block or walk-in, with now marked. */
export function timelineTableHtml(table: TableLine, now: number | null, { t, time }: Pick<LedgerRowContext, 't' | 'time'>): string {
  const what = (b: Bar) => `${time(b.start)}–${time(b.end)} ${b.kind === 'block' ? t('storehost.ledger.block') : b.label}`;
  const label = `${table.label}: ${table.bars.map(what).join(', ') || '—'}`;
  return (
    `<li class="flex items-center" data-testid="timeline-table">` +
    `<span class="w-20 shrink-0 truncate text-sm font-medium">${text(table.label)}` +
    (table.online ? '' : `<span class="sr-only"> (${text(t('storehost.ledger.walkInOnly'))})</span>`) +
    `</span>` +
    `<svg class="h-7 grow rounded bg-base-200" viewBox="0 0 1000 28" preserveAspectRatio="none" role="img"${attr('aria-label', label)}>` +
    table.bars
      .map((b) => `<rect${attr('x', b.left * 1000)}${attr('width', Math.max(b.width * 1000, 2))} y="3" height="22" rx="3"${attr('class', b.kind === 'block' ? 'fill-neutral/60' : 'fill-primary')}><title>${text(what(b))}</title></rect>`)
      .join('') +
    (now !== null ? `<line${attr('x1', now * 1000)}${attr('x2', now * 1000)} y1="0" y2="28" class="stroke-error" stroke-width="3"></line>` : '') +
    `</svg></li>`
  );
}

/**
 * The ledger's way of writing a time of its day (24:30 past midnight), kept per instant: a day's
 * bookings share a few dozen starts and ends, written three times each.
 */
export function ledgerClock(day: string, t: T): (iso: string) => string {
  const seen = new Map<string, string>();
  return (iso) => {
    let s = seen.get(iso);
    if (s === undefined) seen.set(iso, (s = formatTime(new Date(iso), { day, t })));
    return s;
  };
}
