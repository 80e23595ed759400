/**
 * What the document's parts share: a zod schema as JSON Schema, the answer schemas every operation
 * refers to by name (the document's components), and the shape an operation is listed in.
 */
import * as z from 'zod/mini';
import { watchHoldClaimedJsonSchema, watchHoldJsonSchema } from '../../lib/contract/watches';
import { pushKeySchema, pushSubscriptionJsonSchema, pushSubscriptionListSchema } from '../../lib/contract/push';
import { queueClaimedJsonSchema, queueEntryJsonSchema, queueJoinedJsonSchema, storeQueueEntrySchema, storeQueueSchema } from '../../lib/contract/queue';
import {
  accountSchema,
  areaListSchema,
  favouriteListSchema,
  historyListSchema,
  storeListSchema,
  storeSchema,
  watchCreatedSchema,
  watchListSchema,
} from '../../lib/contract/diner';
import { availabilitySchema, bookingListSchema, bookingSchema, errorSchema, guestBookedSchema } from '../../lib/contract/responses';
import type { ErrorCode } from '../../lib/contract/errors';
import {
  bannerJsonSchema,
  bannerListSchema,
  blockJsonSchema,
  blockListSchema,
  closureChangeSchema,
  closureListSchema,
  hoursJsonSchema,
  loginAnswerSchema,
  storeFeeDetailSchema,
  storeFeeJsonSchema,
  storeFeeListSchema,
  storeBookingSchema,
  storeDaySchema,
  storeDetailsJsonSchema,
  storePolicyJsonSchema,
  storeArrivalsJsonSchema,
  storeTablesSchema,
  storeTableSchema,
  walkInJsonSchema,
  walkInListSchema,
  walkInSuggestionSchema,
} from '../../lib/contract/staff';
import { adminStoreJsonSchema, adminTenantListSchema, invitationJsonSchema, invitationListSchema } from '../../lib/contract/admin';

/** JSON as the document holds it. */
export type Json = Record<string, unknown>;

/** A schema as JSON Schema: what a client sends (`input`) or what it gets (`output`). */
export function jsonSchema(schema: z.core.$ZodType, io: 'input' | 'output'): Json {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as Json;
  return rest;
}

/** Answer schemas, shared by reference. */
export const ANSWERS: Record<string, z.core.$ZodType> = {
  Error: errorSchema,
  Account: accountSchema,
  AreaList: areaListSchema,
  StoreList: storeListSchema,
  Store: storeSchema,
  FavouriteList: favouriteListSchema,
  HistoryList: historyListSchema,
  Watch: watchCreatedSchema,
  WatchList: watchListSchema,
  PushKey: pushKeySchema,
  PushSubscription: pushSubscriptionJsonSchema,
  PushSubscriptionList: pushSubscriptionListSchema,
  Availability: availabilitySchema,
  Booking: bookingSchema,
  GuestBooked: guestBookedSchema,
  QueueEntry: queueEntryJsonSchema,
  QueueJoined: queueJoinedJsonSchema,
  QueueClaimed: queueClaimedJsonSchema,
  WatchHold: watchHoldJsonSchema,
  WatchHoldClaimed: watchHoldClaimedJsonSchema,
  StoreQueue: storeQueueSchema,
  StoreQueueEntry: storeQueueEntrySchema,
  BookingList: bookingListSchema,
  LoginAnswer: loginAnswerSchema,
  StoreDay: storeDaySchema,
  StoreBooking: storeBookingSchema,
  StoreTables: storeTablesSchema,
  StoreTable: storeTableSchema,
  Block: blockJsonSchema,
  BlockList: blockListSchema,
  Hours: hoursJsonSchema,
  ClosureList: closureListSchema,
  ClosureChange: closureChangeSchema,
  WalkIn: walkInJsonSchema,
  WalkInList: walkInListSchema,
  WalkInSuggestion: walkInSuggestionSchema,
  StoreDetails: storeDetailsJsonSchema,
  StorePolicy: storePolicyJsonSchema,
  StoreArrivals: storeArrivalsJsonSchema,
  StoreFeeList: storeFeeListSchema,
  StoreFeeDetail: storeFeeDetailSchema,
  StoreFee: storeFeeJsonSchema,
  Banner: bannerJsonSchema,
  BannerList: bannerListSchema,
  Invitation: invitationJsonSchema,
  InvitationList: invitationListSchema,
  AdminStore: adminStoreJsonSchema,
  AdminTenantList: adminTenantListSchema,
};

/** A reference to one of the answer schemas, by its name in the components. */
export const ref = (name: keyof typeof ANSWERS & string) => ({ $ref: `#/components/schemas/${name}` });

/** One operation as the paths list it; src/server/openapi/operation.ts writes it out. */
export interface Operation {
  summary: string;
  body?: z.core.$ZodType;
  query?: z.core.$ZodType;
  /** Path parameters, all numeric ids. */
  ids?: string[];
  /** A `{weekday}` path parameter, 0 (Sunday) to 6 (Saturday). */
  weekday?: boolean;
  /** Success status and its body (a component name, a plain JSON Schema, or nothing). */
  ok: [number, (keyof typeof ANSWERS & string) | Json | null];
  /** Needs a signed-in account (cookie or Bearer); `staff`: a store staff account; `admin`: the platform's admin. */
  auth?: 'user' | 'staff' | 'admin';
  /** Takes an `Idempotency-Key` (src/server/idempotency.ts). */
  idempotent?: true;
  /** The `error.code`s its 409 answers carry, each with what it means (else a general description). */
  conflicts?: Partial<Record<ErrorCode, string>>;
  /** Other error statuses it answers, each with what it means. */
  errors?: Record<number, string>;
  tags: string[];
}

/** A Server-Sent Events answer. */
export const events = { 'text/event-stream': { schema: { type: 'string' } } };

/** A call of the store API: for a store staff account, in the `store` tag; `more` adds its query, body, ids and conflicts. */
export const storeCall = (summary: string, ok: Operation['ok'], more: Omit<Partial<Operation>, 'summary' | 'ok' | 'auth' | 'tags'> = {}): Operation => ({
  summary,
  ok,
  auth: 'staff',
  tags: ['store'],
  ...more,
});
