/**
 * What a client sends to watch for a free table (`POST /api/watches`): a store, or a search (an
 * area, optionally a genre and a keyword), a party and a window (default: the next hour). A guest
 * adds the e-mail address that is told, once they have confirmed it.
 */
import * as z from 'zod/mini';
import { GENRES } from './enums';
import { GUEST_NAME_MAX, KEYWORD_MAX, PARTY_MAX, PARTY_MIN } from './limits';
import { emailField, idSchema, kanaField, optionalText, phoneField, requiredText } from './fields';
import { bookingSchema } from './responses';

const instant = z.iso.datetime({ offset: true });

export const watchSchema = z
  .object({
    store_id: z.optional(idSchema),
    area_id: z.optional(idSchema),
    genre: z.optional(z.enum(GENRES)),
    keyword: optionalText(KEYWORD_MAX),
    party_size: z.int().check(z.minimum(PARTY_MIN), z.maximum(PARTY_MAX)),
    from: z.optional(instant),
    until: z.optional(instant),
    email: z.optional(emailField),
  })
  .check(z.refine((v) => v.store_id !== undefined || v.area_id !== undefined, { message: 'watch.error.target', path: ['store_id'] }));

export type WatchInput = z.infer<typeof watchSchema>;

/** What an open page receives (`event: watch` on /api/watches/stream) when one of its diner's watches fits a freed start. */
export interface WatchAlert {
  watch_id: number;
  store_id: number;
  store_name: string;
  party_size: number;
  /** The freed start (Tokyo ISO), the earliest when several freed at once. */
  start: string;
  /** Books that start: the booking form with store, start and party chosen; for a held start, the hold's page. */
  href: string;
  /** Set when the start is held for this diner alone: the hold and until when. */
  hold_id?: number;
  deadline?: string;
}

/**
 * A claimable 空席通知: a freed start is offered to one watcher at a time, in the order they asked,
 * with the table held for them alone for this many minutes; then it goes to the next watcher.
 */
export const WATCH_HOLD_MINUTES = 5;

/** Where a hold stands: offered (and held until its deadline), claimed as a booking, or expired. */
export const WATCH_HOLD_STATES = ['offered', 'claimed', 'expired'] as const;
export type WatchHoldState = (typeof WATCH_HOLD_STATES)[number];

/** A held start as its watcher sees it (`GET /api/watch-holds/{id}`). */
export const watchHoldJsonSchema = z.object({
  id: z.int(),
  watch_id: z.int(),
  store_id: z.int(),
  store_name: z.string(),
  party_size: z.int(),
  start: z.string(),
  state: z.enum(WATCH_HOLD_STATES),
  /** Until when nobody else may book the table (Tokyo ISO). */
  deadline: z.string(),
  booking_id: z.nullable(z.int()),
});
export type WatchHoldJson = z.infer<typeof watchHoldJsonSchema>;

/** `POST /api/watch-holds/{id}/claim`: the hold became a booking; for a guest, the link that opens it. */
export const watchHoldClaimedJsonSchema = z.object({
  hold: watchHoldJsonSchema,
  booking: bookingSchema,
  booking_url: z.string(),
  edit_token: z.nullable(z.string()),
});

/** Where a hold lives, for pages, the API and mail links alike. */
export const watchHoldPaths = {
  page: (id: number) => `/watches/hold/${id}`,
  /** The mailed link: opens the hold on any device by its own token (kept only as a hash). */
  link: (id: number, token: string) => `/watches/hold/${id}?token=${encodeURIComponent(token)}`,
  api: (id: number) => `/api/watch-holds/${id}`,
  claimApi: (id: number) => `/api/watch-holds/${id}/claim`,
};

/**
 * `POST /api/watch-holds/{id}/claim`: an account books with nothing more; a guest adds the contact
 * details a guest booking needs (the address is the watch's).
 */
export const watchHoldClaimSchema = z.object({
  name: z.optional(requiredText(GUEST_NAME_MAX)),
  name_kana: z.optional(kanaField),
  phone: z.optional(phoneField),
});
export type WatchHoldClaimInput = z.infer<typeof watchHoldClaimSchema>;
