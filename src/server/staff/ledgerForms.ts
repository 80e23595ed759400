/**
 * The ledger's plain forms (the door tablet without JavaScript): seat a walk-in, free its table,
 * mark a booking or undo its mark, change a booking's time, party or table, write down a phone booking. Each form's fields are read as the
 * store API's JSON would carry them and handed to the same service, so no rule lives here twice.
 */
import type { Db } from '../db/types';
import { ApiError, notFound, translate, validate } from '../http/api';
import type { Flash } from '../../lib/flash';
import type { T } from '../../i18n';
import { markSchema, staffBookingSchema, storeBookingPatchSchema, walkInSchema } from '../../lib/contract/staff';
import { tokyoInstant, toTokyoIso } from '../../lib/datetime';
import { parseId, wholeNumber } from '../../lib/validation';
import { bookingContext } from '../bookings/http';
import type { StaffScope } from './access';
import { changeFromStore, writeDownBooking } from './bookings';
import { withinStaffLimits } from './limits';
import { markBooking, undoMark } from './marks';
import { freeWalkIn, seatWalkIn } from './walkIns';
import { actOnEntry } from '../queue/staff';
import { STAFF_QUEUE_ACTIONS, type StaffQueueAction } from '../../lib/contract/queue';

/** A refused phone booking: drawn again with what was typed and each field's error. */
export interface PhoneRefusal {
  values: Record<string, string>;
  errors: Record<string, string>;
  message: string;
  status: number;
}

/** A refused change of one booking: its form drawn open again with what was typed and each field's error. */
export interface ChangeRefusal extends PhoneRefusal {
  booking: number;
}

/** A cancel refused for its reason: the booking's cancel form drawn open again with what was typed. */
export type CancelRefusal = ChangeRefusal;

/**
 * What the page does next: redirect with a message, or draw the phone form or a booking's change or
 * cancel form again; `missing`: the queue entry is not one of the staff's stores' (404, as the API).
 */
export type LedgerOutcome = { flash: Flash } | { phone: PhoneRefusal } | { change: ChangeRefusal } | { cancel: CancelRefusal } | { missing: true };

/** A number typed in a form (full-width digits included), or what was typed when it is none (then the schema names the field). */
const count = (value: string | undefined) => wholeNumber(value, 3) ?? value;

/**
 * The start a phone booking's "HH:MM" names on business day `date`: a time before 05:00 is after
 * midnight, the next calendar day. Anything else is passed on as typed, for the schema to refuse.
 */
export function phoneStart(date: string, time: string): string {
  const hm = /^(\d{2}):(\d{2})$/.exec(time);
  const minutes = hm ? Number(hm[1]) * 60 + Number(hm[2]) : null;
  if (minutes === null || minutes >= 24 * 60) return time;
  return toTokyoIso(tokyoInstant(date, minutes < 5 * 60 ? minutes + 24 * 60 : minutes));
}

/** Handles one post of the ledger at `storeId` (already the staff's) showing business day `date`. */
export async function ledgerPost(
  db: Db,
  scope: StaffScope,
  storeId: number,
  date: string,
  form: FormData | null,
  locals: { t: T; locale: string },
): Promise<LedgerOutcome> {
  const { t } = locals;
  const text = (key: string) => {
    const value = form?.get(key);
    return typeof value === 'string' ? value : '';
  };
  const doing = text('action');
  const values = {
    name: text('name'),
    name_kana: text('name_kana'),
    phone: text('phone'),
    party_size: text('party_size'),
    time: text('time'),
    note: text('note'),
  };
  const changed = { time: text('time'), party_size: text('party_size'), table_id: text('table_id') };
  const done = (message: string): LedgerOutcome => ({ flash: { kind: 'success', message } });
  try {
    if (doing === 'walk_in') {
      const table = text('table_id');
      const name = values.name.trim();
      const input = validate(t, walkInSchema, {
        store_id: storeId,
        party_size: count(values.party_size),
        ...(table ? { table_id: count(table) } : {}),
        ...(name ? { name } : {}),
      });
      const seated = await withinStaffLimits(db, scope, () => seatWalkIn(db, translate(t), scope, input));
      return done(t('storehost.door.seated', { count: seated.party_size, table: seated.table.label }));
    }
    if (doing === 'free' || doing === 'undo') {
      const id = parseId(text(doing === 'free' ? 'walk_in' : 'booking'));
      if (id === null) throw notFound();
      if (doing === 'free') {
        await withinStaffLimits(db, scope, () => freeWalkIn(db, scope, id));
        return done(t('storehost.walkIns.freed'));
      }
      await withinStaffLimits(db, scope, () => undoMark(db, scope, id));
      return done(t('storehost.ledger.undone'));
    }
    if (doing === 'queue') {
      // 呼び出す・着席・来店なし on the queue panel: the moves the store API's queue calls make.
      const id = parseId(text('entry'));
      const move = text('move');
      if (id === null || !Object.hasOwn(STAFF_QUEUE_ACTIONS, move)) throw notFound();
      const entry = await withinStaffLimits(db, scope, () => actOnEntry(db, scope, id, move as StaffQueueAction));
      return done(t(`storehost.queue.done.${move as StaffQueueAction}`, { name: entry.name }));
    }
    if (doing === 'phone') {
      const note = values.note.trim();
      const input = validate(t, staffBookingSchema, {
        store_id: storeId,
        start: phoneStart(date, values.time),
        party_size: count(values.party_size),
        name: values.name,
        name_kana: values.name_kana,
        phone: values.phone,
        ...(note ? { note } : {}),
      });
      await withinStaffLimits(db, scope, () => writeDownBooking(db, bookingContext(locals), scope, input));
      return done(t('storehost.phone.saved'));
    }
    const id = parseId(text('booking'));
    if (id === null) throw notFound();
    if (doing === 'change') {
      const table = changed.table_id;
      const input = validate(t, storeBookingPatchSchema, {
        start: phoneStart(date, changed.time),
        party_size: count(changed.party_size),
        ...(table ? { table_id: count(table) } : {}),
      });
      const booking = await withinStaffLimits(db, scope, () => changeFromStore(db, bookingContext(locals), scope, id, input));
      return done(t('storehost.change.saved', { name: booking.contact.name }));
    }
    const reason = text('reason');
    const input = validate(t, markSchema, { mark: form?.get('mark'), ...(reason !== '' ? { reason } : {}) });
    await withinStaffLimits(db, scope, () => markBooking(db, scope, id, input));
    return done(t(`storehost.ledger.marked.${input.mark}`));
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const fields = error.options.fields ?? {};
    if (doing === 'queue' && error.status === 404) return { missing: true };
    const message = t(error.messageKey, error.options.params);
    // Nothing typed is lost: the phone form comes back open with its fields.
    if (doing === 'phone') return { phone: { values, errors: fields, message, status: error.status } };
    const booking = parseId(text('booking'));
    if (doing === 'change' && booking !== null && error.status !== 404) {
      // The table staff named is taken at that time: its field says so (the time may be the one to change).
      const taken = error.code === 'slot_taken' ? t('storehost.change.tableTaken') : null;
      return { change: { booking, values: changed, errors: taken ? { table_id: taken, ...fields } : fields, message: taken ?? message, status: error.status } };
    }
    // A cancel without its reason: the form comes back open with the reason's error (what else
    // refuses it, the booking no longer open, the ledger shows once the message has said so).
    if (form?.get('mark') === 'cancelled' && booking !== null && error.status === 400 && fields.reason) {
      return { cancel: { booking, values: { reason: text('reason') }, errors: fields, message, status: error.status } };
    }
    const messages = Object.values(fields);
    return { flash: { kind: 'error', message: messages.length ? messages.join(' ') : message } };
  }
}
