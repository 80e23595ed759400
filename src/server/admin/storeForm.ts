/**
 * The store host's plain forms for opening a store, inviting staff and taking up an invitation:
 * each form's fields are read as the JSON call would carry them and handed to the same service,
 * so no rule lives here twice. A refusal comes back with what was typed and each field's error.
 */
import type { Db } from '../db/types';
import { notFound, validate } from '../http/api';
import { formError } from '../http/form';
import type { T } from '../../i18n';
import { adminStoreSchema, invitationSchema, type InvitationJson } from '../../lib/contract/admin';
import { parseId } from '../../lib/validation';
import type { StaffScope } from '../staff/access';
import { acceptInvitation, inviteStaff, signupSchema } from '../staff/invitations';
import type { AdminScope } from './access';
import { createStore } from './stores';

export interface FormRefusal {
  values: Record<string, string>;
  errors: Record<string, string>;
  message: string | null;
  status: number;
}

export type FormOutcome<R> = { ok: true; result: R } | ({ ok: false } & FormRefusal);

/** The form's text fields (never a password echoed back). */
function fieldsOf(form: FormData | null, names: readonly string[]): Record<string, string> {
  const values: Record<string, string> = {};
  for (const name of names) {
    const value = form?.get(name);
    values[name] = typeof value === 'string' ? value : '';
  }
  return values;
}

/** A number typed in a form, left out when blank (the schema then says it is needed), or what was typed for the schema to refuse. */
const numberOf = (value: string) => {
  const v = value.trim();
  if (v === '') return undefined;
  return /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v;
};

async function outcome<R>(t: T, values: Record<string, string>, run: () => Promise<R>): Promise<FormOutcome<R>> {
  try {
    return { ok: true, result: await run() };
  } catch (error) {
    const failed = formError(t, error, values);
    return { ok: false, values, errors: failed.fields, message: failed.message ?? null, status: failed.status };
  }
}

export const STORE_FORM_FIELDS = [
  'company_name',
  'store_name',
  'name_kana',
  'genre',
  'area_id',
  'address',
  'station',
  'walk_minutes',
  'phone',
  'budget_min',
  'budget_max',
  'lat',
  'lng',
  'owner_email',
] as const;
const NUMBERS = new Set(['area_id', 'walk_minutes', 'budget_min', 'budget_max', 'lat', 'lng']);

/** /admin-create-store's post: the company, its store and the owner's invitation. */
export async function adminStorePost(db: Db, admin: AdminScope, form: FormData | null, locals: { t: T; locale: string }) {
  const values = fieldsOf(form, STORE_FORM_FIELDS);
  const body = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, NUMBERS.has(k) ? numberOf(v) : v]));
  return outcome(locals.t, values, () => createStore(db, locals.t, admin, validate(locals.t, adminStoreSchema, body), locals.locale));
}

/** /list-store-manage's invitation form (the owner's). */
export async function invitePost(db: Db, scope: StaffScope, form: FormData | null, locals: { t: T; locale: string }) {
  const values = fieldsOf(form, ['email']);
  return outcome(locals.t, values, () => inviteStaff(db, locals.t, scope, validate(locals.t, invitationSchema, values).email, locals.locale));
}

/**
 * A revoke button of the owner's or the admin's invitation list: the invitation's id, as the
 * DELETE call carries it in its path, handed to `revoke` (the call's own service); an id that is
 * not one is not found, as the call answers.
 */
export async function revokePost(t: T, form: FormData | null, revoke: (id: number) => Promise<InvitationJson>) {
  const values = fieldsOf(form, ['invitation']);
  return outcome(t, values, () => {
    const id = parseId(values.invitation!);
    if (id === null) throw notFound();
    return revoke(id);
  });
}

/** /store-signup's post: the account for the invited address, signed in. */
export async function signupPost(db: Db, form: FormData | null, locals: { t: T; clientAddress: string }, userAgent: string | null) {
  const values = fieldsOf(form, ['token', 'name', 'name_kana']);
  const password = form?.get('password');
  const body = { ...values, password: typeof password === 'string' ? password : '' };
  return outcome(locals.t, values, () => acceptInvitation(db, locals.t, validate(locals.t, signupSchema, body), { ip: locals.clientAddress, userAgent }));
}
