/**
 * The seat screens' plain forms (list-seat-manage and edit-seat): add a table, change or remove
 * one, set the turn times. Each form's fields are read as the store API's JSON would carry them and
 * handed to the same service (src/server/staff/tables.ts), so no rule lives here twice.
 */
import type { Db } from '../db/types';
import { ApiError, translate, validate } from '../http/api';
import type { Flash } from '../../lib/flash';
import type { T } from '../../i18n';
import { tableCreateSchema, tableSettingsSchema, turnTimesSchema } from '../../lib/contract/staff';
import { PARTY_MAX, PARTY_MIN } from '../../lib/contract/limits';
import { wholeNumber } from '../../lib/validation';
import type { StaffScope } from './access';
import { withinStaffLimits } from './limits';
import { addTable, removeTable, setTable, setTurnTimes } from './tables';

/** A refused form: drawn again with what was typed, each field's error and the form-wide message. */
export interface FormRefusal {
  form: 'table' | 'turn_times' | 'delete';
  values: Record<string, string>;
  errors: Record<string, string>;
  message: string;
  status: number;
}

/** What the page does next: redirect with a message, or draw a form again. */
export type SeatOutcome = { flash: Flash; removed?: true } | { refused: FormRefusal };

/** The party sizes the turn-time form has a field for (`turn_<size>`). */
export const TURN_SIZES = Array.from({ length: PARTY_MAX - PARTY_MIN + 1 }, (_, i) => PARTY_MIN + i);

/** A number typed in a form (full-width digits included), or what was typed when it is none (then the schema names the field). */
const count = (value: string | undefined) => wholeNumber(value, 4) ?? value;

const reader = (form: FormData | null) => (key: string) => {
  const value = form?.get(key);
  return typeof value === 'string' ? value : '';
};

/** A table form's fields as typed (the online box is sent only when ticked). */
function tableValues(text: (key: string) => string): Record<string, string> {
  return { label: text('label'), kind: text('kind'), min_party: text('min_party'), max_party: text('max_party'), online: text('online') === 'on' ? 'on' : '' };
}

const tableJson = (v: Record<string, string>) => ({
  label: v.label,
  kind: v.kind,
  min_party: count(v.min_party!),
  max_party: count(v.max_party!),
  online: v.online === 'on',
});

/** A refusal of `form`, its fields' errors as the API names them. */
function refusal(t: T, error: ApiError, form: FormRefusal['form'], values: Record<string, string>, rename: (field: string) => string = (f) => f): SeatOutcome {
  const errors = Object.fromEntries(Object.entries(error.options.fields ?? {}).map(([field, message]) => [rename(field), message]));
  return { refused: { form, values, errors, message: t(error.messageKey, error.options.params), status: error.status } };
}

/** Handles one post of list-seat-manage at `storeId` (already the staff's): add a table, or set the turn times. */
export async function seatListPost(db: Db, scope: StaffScope, storeId: number, form: FormData | null, locals: { t: T }): Promise<SeatOutcome> {
  const { t } = locals;
  const text = reader(form);
  if (text('action') === 'turn_times') {
    const values: Record<string, string> = { stay_minutes: text('stay_minutes') };
    for (const size of TURN_SIZES) values[`turn_${size}`] = text(`turn_${size}`);
    // Only the sizes given a time are sent; the others keep the standard stay.
    const given = TURN_SIZES.filter((size) => values[`turn_${size}`]!.trim() !== '');
    try {
      const input = validate(t, turnTimesSchema, {
        store_id: storeId,
        stay_minutes: count(values.stay_minutes!),
        turn_times: given.map((size) => ({ party_size: size, minutes: count(values[`turn_${size}`]!) })),
      });
      await withinStaffLimits(db, scope, () => setTurnTimes(db, scope, input));
      return { flash: { kind: 'success', message: t('storehost.seats.turn.saved') } };
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      // `turn_times.3.minutes` is the fourth size given a time: its field on the form.
      return refusal(t, error, 'turn_times', values, (field) => {
        const item = /^turn_times\.(\d+)\./.exec(field);
        return item ? `turn_${given[Number(item[1])]}` : field;
      });
    }
  }
  const values = tableValues(text);
  try {
    const input = validate(t, tableCreateSchema, { store_id: storeId, ...tableJson(values) });
    const table = await withinStaffLimits(db, scope, () => addTable(db, translate(t), scope, input));
    return { flash: { kind: 'success', message: t('storehost.seats.added', { label: table.label }) } };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return refusal(t, error, 'table', values);
  }
}

/** Handles one post of edit-seat for table `id`: save its settings, or remove it. */
export async function seatEditPost(db: Db, scope: StaffScope, id: number, label: string, form: FormData | null, locals: { t: T }): Promise<SeatOutcome> {
  const { t } = locals;
  const text = reader(form);
  if (text('action') === 'delete') {
    try {
      await withinStaffLimits(db, scope, () => removeTable(db, scope, id));
      return { flash: { kind: 'success', message: t('storehost.seat.deleted', { label }) }, removed: true };
    } catch (error) {
      if (!(error instanceof ApiError) || error.status === 404) throw error;
      return refusal(t, error, 'delete', {});
    }
  }
  const values = tableValues(text);
  try {
    const input = validate(t, tableSettingsSchema, tableJson(values));
    const table = await withinStaffLimits(db, scope, () => setTable(db, translate(t), scope, id, input));
    return { flash: { kind: 'success', message: t('storehost.seat.saved', { label: table.label }) } };
  } catch (error) {
    if (!(error instanceof ApiError) || error.status === 404) throw error;
    return refusal(t, error, 'table', values);
  }
}
