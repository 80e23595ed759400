/**
 * What a client sends to watch for a free table (`POST /api/watches`): a store, or a search (an
 * area, optionally a genre and a keyword), a party and a window (default: the next hour). A guest
 * adds the e-mail address that is told, once they have confirmed it.
 */
import * as z from 'zod/mini';
import { GENRES } from './enums';
import { KEYWORD_MAX, PARTY_MAX, PARTY_MIN } from './limits';
import { emailField, idSchema, optionalText } from './fields';

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
  /** Books that start: the booking form with store, start and party chosen. */
  href: string;
}
