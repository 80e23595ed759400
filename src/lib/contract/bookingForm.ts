/**
 * The booking form's state as the server renders it and the booking widget takes it over: the
 * choice a link carried (`?start=…&party=…`), or what the form posted without JavaScript
 * (`postedForm` in src/server/bookings/form.ts). The same names are the form's field names.
 */
import type { TableKind } from './enums';
import type { bookingSchemas } from './booking';
import type { GuestBookedJson, SlotJson } from './responses';

export interface Contact {
  name: string;
  name_kana: string;
  phone: string;
  email: string;
}

/** What the diner has entered; kept whatever happens (a lost race, a server error). */
export interface FormValues {
  date: string;
  party: number;
  start: string;
  seat: TableKind | '';
  note: string;
  contact: Contact;
}

export type FormStep = 'form' | 'confirm' | 'done';

/** Why the form is shown again: a start gone since it was offered, with the next free ones. */
export interface TakenNotice {
  message: string;
  next: SlotJson[];
  /** The start that was taken (Tokyo ISO): the notice offers to watch it (空席通知). */
  taken?: string;
}

/** A guest's new booking; `edit_url` when the server made it (the island builds it from the token otherwise). */
export type GuestDone = GuestBookedJson & { edit_url?: string };

export interface BookingFormState {
  values: FormValues;
  /** Keep the guest's contact details on this device. */
  remember: boolean;
  /** The day's starts for `values.date` and `values.party`, as the server sees them. */
  slots: SlotJson[];
  step: FormStep;
  errors: Record<string, string>;
  notice: TakenNotice | null;
  /** A guest who booked without JavaScript: the booking, and its edit link shown this once. */
  done: GuestDone | null;
  /** Refused as a duplicate: the page of the booking the diner already holds (an account's only). */
  firstBooking?: string;
  /** Changing a booking: the diner asked to cancel, so the confirmation (with the store's policy) is open. */
  askCancel?: boolean;
  /** What the link asked for and the form could not show, said beside its field. */
  notes?: FieldNotes;
}

/** A note per field of the choice a link carried: `party=99`, a past day, a start not offered. */
export type FieldNotes = Partial<Record<'date' | 'party_size' | 'start', string>>;

/** The `intent` of a posted booking form: show the day's starts, go to the confirmation, go back, or book. */
export const FORM_INTENTS = ['slots', 'next', 'edit', 'book'] as const;
export type FormIntent = (typeof FORM_INTENTS)[number];

/** Changing a booking adds: open the cancel confirmation, close it (keep the booking), and cancel. */
export const EDIT_INTENTS = [...FORM_INTENTS, 'ask-cancel', 'keep', 'cancel'] as const;

/** The request body for the form's values, as the API takes it (and as the server checks a posted form). */
export function bookingBody(mode: keyof typeof bookingSchemas, storeId: number, v: FormValues): Record<string, unknown> {
  const body: Record<string, unknown> = { start: v.start || undefined, party_size: v.party, seat_preference: v.seat || null, note: v.note };
  if (mode !== 'edit') body.store_id = storeId;
  if (mode === 'guest') Object.assign(body, v.contact);
  return body;
}
