/**
 * The fee page's plain form (payment-detail): waive, mark collected outside Sugu, or put back to
 * due, with an optional note. The fields are read as `PATCH /api/store/fees/{id}` would carry them
 * and handed to the same service, so no rule lives here twice.
 */
import type { Db } from '../db/types';
import { ApiError, validate } from '../http/api';
import type { Flash } from '../../lib/flash';
import type { T } from '../../i18n';
import { feeStateSchema } from '../../lib/contract/staff';
import type { FeeState } from '../../lib/contract/enums';
import type { StaffScope } from './access';
import { withinStaffLimits } from './limits';
import { setFeeState } from './fees';

/** A refused change: drawn again with the note as typed and each field's error. */
export interface FeeRefusal {
  values: { note: string };
  errors: Record<string, string>;
  message: string;
  status: number;
}

export type FeeOutcome = { flash: Flash } | { refusal: FeeRefusal };

const DONE: Record<FeeState, 'storehost.fees.done.due' | 'storehost.fees.done.waived' | 'storehost.fees.done.collected'> = {
  due: 'storehost.fees.done.due',
  waived: 'storehost.fees.done.waived',
  collected: 'storehost.fees.done.collected',
};

/** Handles one post of booking `id`'s fee page. */
export async function feePost(db: Db, scope: StaffScope, id: number, form: FormData | null, locals: { t: T }): Promise<FeeOutcome> {
  const { t } = locals;
  const note = form?.get('note');
  const values = { note: typeof note === 'string' ? note : '' };
  try {
    const input = validate(t, feeStateSchema, { state: form?.get('state'), ...(values.note.trim() !== '' ? { note: values.note } : {}) });
    await withinStaffLimits(db, scope, () => setFeeState(db, scope, id, input));
    return { flash: { kind: 'success', message: t(DONE[input.state]) } };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { refusal: { values, errors: error.options.fields ?? {}, message: t(error.messageKey, error.options.params), status: error.status } };
  }
}
