/**
 * What a client sends to book, change or cancel: `POST /api/bookings`, `POST /api/guest-bookings`
 * and `PATCH /api/(guest-)bookings/{id}` parse their bodies with these, and the booking widget
 * checks its form with the same schemas before sending.
 */
import * as z from 'zod/mini';
import { LATE_NOTICES, TABLE_KINDS } from './enums';
import { GUEST_NAME_MAX, NOTE_MAX, PARTY_MAX, PARTY_MIN } from './limits';
import { emailField, idSchema, kanaField, optionalText, phoneField, requiredText } from './fields';

/** A start time with its offset, as the API writes it (`2026-11-21T19:00:00+09:00`). */
const start = z.iso.datetime({ offset: true });
const partySize = z.int().check(z.minimum(PARTY_MIN), z.maximum(PARTY_MAX));
const seatPreference = z.nullish(z.enum(TABLE_KINDS));
/** Typed in a textarea: line breaks kept. */
const note = optionalText(NOTE_MAX, 'multiline');

export const createSchema = z.object({ store_id: idSchema, start, party_size: partySize, seat_preference: seatPreference, note });

/** A guest books with contact details instead of an account. */
export const guestSchema = z.extend(createSchema, {
  name: requiredText(GUEST_NAME_MAX),
  name_kana: kanaField,
  phone: phoneField,
  email: emailField,
});

/** A change names at least one thing to change. */
export const editSchema = z
  .object({ start: z.optional(start), party_size: z.optional(partySize), seat_preference: seatPreference, note })
  .check(z.refine((v) => Object.values(v).some((x) => x !== undefined), { message: 'booking.error.nothingToChange', path: ['_'] }));

/** `POST /api/(guest-)bookings/{id}/late`: the diner tells the store they are on their way or late. */
export const lateSchema = z.object({ notice: z.enum(LATE_NOTICES) });

export type CreateInput = z.infer<typeof createSchema>;
export type LateInput = z.infer<typeof lateSchema>;
export type GuestInput = z.infer<typeof guestSchema>;
export type EditInput = z.infer<typeof editSchema>;

export const bookingSchemas = { create: createSchema, guest: guestSchema, edit: editSchema };

/**
 * The issues of a booking form's body, empty when it is fine: what the server will say about it.
 * @example bookingIssues('guest', { ...body, phone: '０９０－１２３４－５６７８' }) // []
 */
export function bookingIssues(kind: keyof typeof bookingSchemas, body: unknown) {
  const result = parseBooking[kind](body);
  return result.success ? [] : result.error.issues;
}

/** A booking form's body as the API is sent it: parsed (full-width digits read, text trimmed), or its issues. */
export const parseBooking = {
  create: (body: unknown) => z.safeParse(createSchema, body),
  guest: (body: unknown) => z.safeParse(guestSchema, body),
  edit: (body: unknown) => z.safeParse(editSchema, body),
};
