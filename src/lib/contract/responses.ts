/**
 * The JSON the API answers, as schemas (DESIGN §6; times are ISO 8601 with `+09:00`). Islands use
 * the inferred types; the API tests parse real answers with the schemas, so the two cannot drift.
 */
import * as z from 'zod/mini';
import { BOOKING_STATUSES, LATE_NOTICES, TABLE_KINDS } from './enums';
import { ERROR_CODES } from './errors';
import { OIDC_PROVIDERS } from './paths';

/**
 * The store's cancellation fee as it applies at the time of the answer (src/server/bookings/fee.ts):
 * `none` (the store charges nothing), `free` (free until `free_until`, then the fee) or `due`
 * (cancelling now costs the fee); amounts in yen; `message` says it in the reader's language.
 */
export const cancellationFeeSchema = z.object({
  applies: z.enum(['none', 'free', 'due']),
  free_until: z.nullable(z.string()),
  per_person: z.int(),
  total: z.int(),
  message: z.string(),
});

export const slotSchema = z.object({
  start: z.string(),
  end: z.string(),
  free_tables: z.int(),
  /** In a store's day of starts for the booking form: the fee if booked at this start now. */
  cancellation_fee: z.optional(cancellationFeeSchema),
});

/** A store's starts on one business day for a party (`GET /api/stores/{id}/availability`), with what was asked. */
export const availabilitySchema = z.object({
  date: z.string(),
  party: z.int(),
  /** Only when starts at one kind of table were asked for. */
  seat: z.optional(z.enum(TABLE_KINDS)),
  slots: z.array(slotSchema),
});

export const bookingSchema = z.object({
  id: z.int(),
  code: z.string(),
  store_id: z.int(),
  store_name: z.string(),
  start: z.string(),
  end: z.string(),
  party_size: z.int(),
  status: z.enum(BOOKING_STATUSES),
  seat_preference: z.nullable(z.enum(TABLE_KINDS)),
  table_kind: z.enum(TABLE_KINDS),
  note: z.string(),
  cancellation_policy: z.string(),
  /** Cancelling this booking now. */
  cancellation_fee: cancellationFeeSchema,
  /** Confirmed and not started yet. */
  changeable: z.boolean(),
  /** The diner's latest word to the store on the way (src/lib/contract/late.ts), and when they sent it. */
  running_late: z.nullable(z.object({ notice: z.enum(LATE_NOTICES), at: z.string() })),
  /** A running-late notice can be sent now (`POST …/late`). */
  late_open: z.boolean(),
  /** Only on guest bookings, to their holder. */
  guest: z.optional(z.object({ name: z.string(), name_kana: z.string(), phone: z.string(), email: z.string() })),
});

/** A new guest booking: the edit token is in this answer only (and the mail). */
export const guestBookedSchema = z.extend(bookingSchema, { edit_token: z.string() });

export const bookingListSchema = z.object({ items: z.array(bookingSchema) });

export const errorSchema = z.object({
  error: z.object({
    code: z.enum(ERROR_CODES),
    message: z.string(),
    /** Field name → translated message. */
    fields: z.optional(z.record(z.string(), z.string())),
    /** With `slot_taken`: the nearest free starts that day for that party. */
    next_slots: z.optional(z.array(slotSchema)),
    /** With `duplicate_booking`, to an account: the page of the booking it already holds. */
    booking_url: z.optional(z.string()),
    /** With `change_needs_store`: the store's phone number, to make the change by calling. */
    phone: z.optional(z.string()),
    /** With `reauth_required`: the provider's sign-in to follow in the same browser; its callback completes the leave. */
    reauth_url: z.optional(z.string()),
    /** With `reauth_required`: the linked provider that sign-in is at. */
    provider: z.optional(z.enum(OIDC_PROVIDERS)),
  }),
});

export type SlotJson = z.infer<typeof slotSchema>;
export type CancellationFeeJson = z.infer<typeof cancellationFeeSchema>;
export type BookingJson = z.infer<typeof bookingSchema>;
export type GuestBookedJson = z.infer<typeof guestBookedSchema>;
export type ErrorJson = z.infer<typeof errorSchema>;
