/**
 * The OpenAPI 3.1 description of the whole JSON API, generated from the zod schemas the endpoints
 * themselves parse with (request bodies and query strings) and the contract's answer schemas
 * (src/lib/contract), by zod's own `toJSONSchema` (JSON Schema 2020-12, OpenAPI 3.1's dialect).
 * Served at /api/openapi.json; tests/unit/openapi.test.ts checks that every endpoint is in it.
 */
import * as z from 'zod/mini';
import { changePasswordSchema, leaveApiSchema, profileSchema } from './account';
import { forgotSchema, linkTokenSchema, resetSchema, signInSchema, signUpSchema } from './auth';
import { streamQuerySchema } from './live';
import { SESSION_COOKIE } from './sessions';
import { availabilityQuerySchema, listQuerySchema, partyQuerySchema } from './stores/query';
import { createSchema, editSchema, guestSchema, lateSchema } from '../lib/contract/booking';
import { WATCH_HOLD_MINUTES, watchHoldClaimedJsonSchema, watchHoldClaimSchema, watchHoldJsonSchema, watchSchema } from '../lib/contract/watches';
import { pushKeySchema, pushSubscriptionJsonSchema, pushSubscriptionListSchema, pushSubscriptionSchema, PUSH_SUBSCRIPTIONS_MAX } from '../lib/contract/push';
import { queueClaimedJsonSchema, queueEntryJsonSchema, queueJoinedJsonSchema, queueJoinSchema, storeQueueEntrySchema, storeQueueSchema, QUEUE_CLAIM_MINUTES_DEFAULT, QUEUES_PER_DINER } from '../lib/contract/queue';
import { accountSchema, areaListSchema, favouriteListSchema, historyListSchema, storeListSchema, storeSchema, watchCreatedSchema, watchListSchema } from '../lib/contract/diner';
import { availabilitySchema, bookingListSchema, bookingSchema, errorSchema, guestBookedSchema } from '../lib/contract/responses';
import type { ErrorCode } from '../lib/contract/errors';
import { BANNERS_ACTIVE_MAX, IDEMPOTENCY_KEY_HOURS, IDEMPOTENCY_KEY_MAX, IDEMPOTENCY_KEY_MIN, WATCHES_ACTIVE_MAX } from '../lib/contract/limits';
import {
  bannerJsonSchema,
  bannerListSchema,
  bannerPatchSchema,
  bannerSchema,
  blockJsonSchema,
  blockListSchema,
  blockSchema,
  closureChangeSchema,
  closureListSchema,
  closureSchema,
  hoursJsonSchema,
  hoursSchema,
  loginAnswerSchema,
  staffBookingSchema,
  storeBookingPatchSchema,
  storeFeeDetailSchema,
  storeFeeJsonSchema,
  storeFeeListSchema,
  storeFeeQuerySchema,
  feeStateSchema,
  storeBookingSchema,
  storeDayQuerySchema,
  storeDaySchema,
  storeDetailsJsonSchema,
  storeDetailsSchema,
  storePolicyJsonSchema,
  storeArrivalsJsonSchema,
  storeArrivalsSchema,
  storePolicySchema,
  storeQuerySchema,
  storeTablesSchema,
  tableSettingsSchema,
  tableCreateSchema,
  storeTableSchema,
  turnTimesSchema,
  walkInJsonSchema,
  walkInListSchema,
  walkInSchema,
  walkInSuggestionSchema,
  walkInSuggestQuerySchema,
  weekdayHoursSchema,
} from '../lib/contract/staff';
import { adminStoreJsonSchema, adminStoreSchema, adminTenantListSchema, adminTenantQuerySchema, invitationJsonSchema, invitationListSchema, invitationSchema } from '../lib/contract/admin';
import { signupSchema } from './staff/invitations';

type Json = Record<string, unknown>;

/** A schema as JSON Schema: what a client sends (`input`) or what it gets (`output`). */
function jsonSchema(schema: z.core.$ZodType, io: 'input' | 'output'): Json {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as Json;
  return rest;
}

/** Answer schemas, shared by reference. */
const ANSWERS: Record<string, z.core.$ZodType> = {
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
const ref = (name: keyof typeof ANSWERS & string) => ({ $ref: `#/components/schemas/${name}` });

interface Operation {
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

/** The `Idempotency-Key` header, as the IETF httpapi draft has it. */
const idempotencyKeyParameter = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description: `A unique key per intent (${IDEMPOTENCY_KEY_MIN}–${IDEMPOTENCY_KEY_MAX} printable ASCII characters, e.g. a UUID; the draft's quoted form is the same key), sent again on every retry of it. Within ${IDEMPOTENCY_KEY_HOURS} hours the same key with the same body gets the first answer again, status and body (a guest booking's edit token included), from any instance; with another body 422 \`idempotency_key_reused\`; while the first request is still being answered 409 \`idempotency_key_in_flight\` with Retry-After. After ${IDEMPOTENCY_KEY_HOURS} hours the key is forgotten and is a new request. A malformed key is 400.`,
  schema: { type: 'string', minLength: IDEMPOTENCY_KEY_MIN, maxLength: IDEMPOTENCY_KEY_MAX },
};

/** What a 409 of the booking operations may say, by `error.code`. */
const CONFLICT = {
  slot_taken: 'the start was taken meanwhile; `next_slots` offers the nearest free starts that day, each with its fee',
  duplicate_booking: 'the diner (account, phone, e-mail or device) already holds a booking at this store overlapping in time (利用規約 第4条); `booking_url` links to it when the asker may see it',
  not_changeable: 'the booking is cancelled or has started',
  change_needs_store: 'the cancellation fee is due now, so a change of time or party is made by calling the store (`phone`)',
  idempotency_key_in_flight: 'the first request with this Idempotency-Key is still being answered; try again after Retry-After',
} satisfies Partial<Record<ErrorCode, string>>;
const bookConflicts = { slot_taken: CONFLICT.slot_taken, duplicate_booking: CONFLICT.duplicate_booking };
const changeConflicts = { slot_taken: CONFLICT.slot_taken, duplicate_booking: 'a change onto a time the diner already holds another booking at this store overlapping', not_changeable: CONFLICT.not_changeable, change_needs_store: CONFLICT.change_needs_store };
const cancelConflicts = { not_changeable: CONFLICT.not_changeable };
const lateConflicts = { not_changeable: 'not upcoming: cancelled, marked at the door, or outside the window from 2 hours before the start to the end of the store’s grace period' };
const LATE_SUMMARY = 'Tell the store the party is on its way (`on_way`) or 10 or 15 minutes late (`late_10`, `late_15`); the latest notice is kept with its time and shown live on the store’s ledger';

/** The shape of this document itself, as served at /api/openapi.json. */
const DOCUMENT = {
  type: 'object',
  properties: {
    openapi: { const: '3.1.0' },
    info: { type: 'object', properties: { title: { type: 'string' }, version: { type: 'string' }, description: { type: 'string' } }, required: ['title', 'version'], additionalProperties: false },
    jsonSchemaDialect: { type: 'string' },
    servers: { type: 'array', items: { type: 'object', properties: { url: { type: 'string' }, description: { type: 'string' } }, required: ['url'] } },
    security: { type: 'array' },
    tags: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, description: { type: 'string' } }, required: ['name'] } },
    // Each path's operations, and each component, are objects of OpenAPI's own shape.
    paths: { type: 'object', additionalProperties: { type: 'object', additionalProperties: { type: 'object', properties: { operationId: { type: 'string' }, responses: { type: 'object' } }, required: ['operationId', 'responses'] } } },
    components: {
      type: 'object',
      properties: { schemas: { type: 'object', additionalProperties: { type: 'object' } }, securitySchemes: { type: 'object', additionalProperties: { type: 'object', properties: { type: { type: 'string' } }, required: ['type'] } } },
      required: ['schemas', 'securitySchemes'],
      additionalProperties: false,
    },
  },
  required: ['openapi', 'info', 'servers', 'paths', 'components'],
  additionalProperties: false,
};
const events = { 'text/event-stream': { schema: { type: 'string' } } };

/** A call of the store API: for a store staff account, in the `store` tag; `more` adds its query, body, ids and conflicts. */
const storeCall = (summary: string, ok: Operation['ok'], more: Omit<Partial<Operation>, 'summary' | 'ok' | 'auth' | 'tags'> = {}): Operation => ({ summary, ok, auth: 'staff', tags: ['store'], ...more });

/** Every endpoint under /api, by path and method. */
function operations(now: Date): Record<string, Record<string, Operation>> {
  const diner = ['diner'];
  const store = ['store'];
  const account = ['account'];
  return {
    '/api/login': {
      post: {
        summary: "Sign in (diners, store staff and the platform's admins; on the store host staff and admins only, a diner's account gets 403)",
        body: signInSchema,
        ok: [200, 'LoginAnswer'],
        errors: { 401: 'Wrong e-mail or password (the same answer for an address without an account)', 403: "On the store host: a diner's account, which signs in on the diner site only" },
        tags: account,
      },
      delete: { summary: 'Sign out', ok: [204, null], tags: account },
    },
    '/api/users': {
      post: {
        summary:
          'Sign up (201 `{}` and no cookie whether or not the address already has an account: a new, unverified account is mailed its verification link, the owner of an existing one is mailed that someone tried)',
        body: signUpSchema,
        ok: [201, { type: 'object', properties: {}, additionalProperties: false }],
        tags: account,
      },
    },
    '/api/email-verification': {
      post: {
        summary: 'Verify the account’s e-mail address from the mailed link, and sign in (400 `invalid_link` when it is used, expired or unknown)',
        body: linkTokenSchema,
        ok: [204, null],
        tags: account,
      },
    },
    '/api/me/email-verification': {
      post: { summary: 'Send the verification link again to an unverified account (rate-limited; an account already verified is mailed nothing)', ok: [202, null], auth: 'user', tags: account },
    },
    '/api/password/forgot': { post: { summary: 'Ask for a reset link', body: forgotSchema, ok: [202, null], tags: account } },
    '/api/password/reset': { post: { summary: 'Set a new password from a reset link', body: resetSchema, ok: [204, null], tags: account } },
    '/api/password/verify': { post: { summary: 'Whether a reset link still works', body: linkTokenSchema, ok: [204, null], tags: account } },
    '/api/me': {
      get: { summary: 'The account', ok: [200, 'Account'], auth: 'user', tags: account },
      patch: { summary: 'Change the profile', body: profileSchema, ok: [200, 'Account'], auth: 'user', conflicts: { email_taken: 'another account has that e-mail address' }, tags: account },
      delete: {
        summary:
          'Leave (退会) and sign out, with `password` and `confirm: true`. An account without a password (made by a provider) proves it is the diner by a fresh sign-in at a linked provider instead: with `confirm: true` (and optionally `provider`, a linked one) it is answered 403 `reauth_required` and nothing is deleted yet; the error’s `reauth_url` is that provider’s sign-in (prompt=login, max_age=0), started for this browser (the answer sets its state cookie), and following it in the same browser, still signed in as this diner, deletes the account at the callback and lands on /home. A client without the browser’s cookies (Bearer) sends the diner to /user-leave-association instead',
        body: leaveApiSchema,
        ok: [204, null],
        auth: 'user',
        errors: {
          400: '`wrong_password`, or `validation_failed` naming the field (no password sent for an account that has one, `confirm` not true), or `bad_request` with `fields.provider` for a provider not linked to the account',
          403: '`reauth_required`: an account without a password; `reauth_url` and `provider` name the sign-in that completes the leave (without them: no linked provider is configured here, and a password must be set first); or `cross_origin`, sent by another site’s page',
        },
        tags: account,
      },
    },
    '/api/me/password': { put: { summary: 'Change the password', body: changePasswordSchema, ok: [204, null], auth: 'user', tags: account } },
    '/api/areas': { get: { summary: 'Areas with their store counts', ok: [200, 'AreaList'], tags: diner } },
    '/api/stores': { get: { summary: 'Stores bookable now: filters (budget, seat kind, tags), sort (nearest, soonest, budget), starts a diner at lat/lng can walk to; on the last page, the matching stores bookable later today and on another day with their next start (`more` shows more of one group)', query: listQuerySchema, ok: [200, 'StoreList'], tags: diner } },
    '/api/stores/{id}': { get: { summary: 'One store', ids: ['id'], ok: [200, 'Store'], tags: diner } },
    '/api/stores/{id}/availability': {
      get: { summary: "A business day's starts with free tables", ids: ['id'], query: availabilityQuerySchema(now), ok: [200, 'Availability'], tags: diner },
    },
    '/api/availability/stream': { get: { summary: 'Live availability of some stores (Server-Sent Events)', query: streamQuerySchema, ok: [200, events], tags: diner } },
    '/api/bookings': {
      get: { summary: "The diner's bookings", ok: [200, 'BookingList'], auth: 'user', tags: diner },
      post: { summary: 'Book a table (409 `duplicate_booking` with `booking_url` when the diner already holds an overlapping booking there)', body: createSchema, ok: [201, 'Booking'], auth: 'user', idempotent: true, conflicts: bookConflicts, tags: diner },
    },
    '/api/bookings/{id}': {
      get: { summary: 'One of the diner’s bookings', ids: ['id'], ok: [200, 'Booking'], auth: 'user', tags: diner },
      patch: { summary: 'Change it', ids: ['id'], body: editSchema, ok: [200, 'Booking'], auth: 'user', idempotent: true, conflicts: changeConflicts, tags: diner },
      delete: { summary: 'Cancel it', ids: ['id'], ok: [200, 'Booking'], auth: 'user', idempotent: true, conflicts: cancelConflicts, tags: diner },
    },
    '/api/bookings/{id}/late': { post: { summary: LATE_SUMMARY, ids: ['id'], body: lateSchema, ok: [200, 'Booking'], auth: 'user', idempotent: true, conflicts: lateConflicts, tags: diner } },
    '/api/bookings/{id}/ics': { get: { summary: 'It as a calendar file', ids: ['id'], ok: [200, { 'text/calendar': { schema: { type: 'string' } } }], auth: 'user', tags: diner } },
    '/api/guest-bookings': {
      post: {
        summary: 'Book as a guest (the edit token is in this answer only; 409 `duplicate_booking` when the same phone, e-mail or device already holds an overlapping booking there)',
        body: guestSchema,
        ok: [201, 'GuestBooked'],
        idempotent: true,
        conflicts: bookConflicts,
        tags: diner,
      },
    },
    '/api/guest-bookings/{id}': {
      get: { summary: 'A guest booking (header X-Booking-Token)', ids: ['id'], ok: [200, 'Booking'], tags: diner },
      patch: { summary: 'Change it', ids: ['id'], body: editSchema, ok: [200, 'Booking'], idempotent: true, conflicts: changeConflicts, tags: diner },
      delete: { summary: 'Cancel it', ids: ['id'], ok: [200, 'Booking'], idempotent: true, conflicts: cancelConflicts, tags: diner },
    },
    '/api/guest-bookings/{id}/late': { post: { summary: `${LATE_SUMMARY} (header X-Booking-Token)`, ids: ['id'], body: lateSchema, ok: [200, 'Booking'], idempotent: true, conflicts: lateConflicts, tags: diner } },
    '/api/guest-bookings/{id}/ics': { get: { summary: 'It as a calendar file', ids: ['id'], ok: [200, { 'text/calendar': { schema: { type: 'string' } } }], tags: diner } },
    '/api/stores/{id}/queue': {
      post: {
        summary: `Join the store’s 順番待ち, signed in or as a guest (a guest’s token is in this answer only, and in an HttpOnly cookie on the entry’s paths); the entry tells the parties ahead and the estimated wait as a range. Open while the store is open and no start within the hour is free, or always where the store says so; a called party has the store’s claim window (default ${QUEUE_CLAIM_MINUTES_DEFAULT} minutes) to confirm`,
        ids: ['id'],
        body: queueJoinSchema,
        ok: [201, 'QueueJoined'],
        idempotent: true,
        conflicts: { queue_closed: 'a start within the hour is free (book it instead), or the store is closed now', too_many_queues: `the diner already waits in ${QUEUES_PER_DINER} queues` },
        tags: diner,
      },
    },
    '/api/queue/{id}': {
      get: { summary: 'One’s 順番待ち entry (signed in, or header X-Queue-Token): its state with a time per state, the parties ahead and the estimated wait (`estimate`: a range in minutes, null when none can be given)', ids: ['id'], ok: [200, 'QueueEntry'], tags: diner },
      delete: { summary: 'Leave the queue (waiting or called): the entry is canceled', ids: ['id'], ok: [200, 'QueueEntry'], conflicts: { queue_state: 'the entry has already ended (seated, no-show, canceled or expired)' }, tags: diner },
    },
    '/api/queue/{id}/push': {
      post: {
        summary:
          'This browser gets a guest’s 順番待ち call by Web Push (header X-Queue-Token, or the entry’s cookie): its PushSubscription.toJSON(), tied to the entry and removed when the entry ends (seated, no-show, canceled or expired). The endpoint must be https: on a public host. The same endpoint again replaces its keys and owner. Another diner’s entry, or an account’s (its account’s devices get the call), is 404',
        ids: ['id'],
        body: pushSubscriptionSchema,
        ok: [201, 'PushSubscription'],
        conflicts: { queue_state: 'the entry has already ended (seated, no-show, canceled or expired)' },
        tags: diner,
      },
    },
    '/api/queue/{id}/claim': {
      post: {
        summary: 'The called party confirms within its claim window (signed in, or header X-Queue-Token): a booking starting now for the party, by the booking rules (one table per diner at a time, the party’s size), and the entry SEATED with `booking_id`. A guest’s answer carries the booking’s edit token once (`edit_token`, and `booking_url` opens it) and its browser the booking’s cookies',
        ids: ['id'],
        ok: [200, 'QueueClaimed'],
        conflicts: {
          queue_state: 'the entry is not called: its claim window is over (it expires), or it was seated, left or marked meanwhile (of two claims, or a claim and the store seating the party, one wins)',
          no_free_table: 'no table fits the party now after all, or the store closes before the stay would end',
          duplicate_booking: CONFLICT.duplicate_booking,
        },
        tags: diner,
      },
    },
    '/api/favourites': { get: { summary: 'Favourite stores', query: partyQuerySchema, ok: [200, 'FavouriteList'], auth: 'user', tags: diner } },
    '/api/favourites/{storeId}': {
      put: { summary: 'Add a favourite', ids: ['storeId'], ok: [204, null], auth: 'user', tags: diner },
      delete: { summary: 'Remove a favourite', ids: ['storeId'], ok: [204, null], auth: 'user', tags: diner },
    },
    '/api/history': { get: { summary: 'Viewed stores, newest first', query: partyQuerySchema, ok: [200, 'HistoryList'], auth: 'user', tags: diner } },
    '/api/history/{storeId}': { delete: { summary: 'Forget a viewed store', ids: ['storeId'], ok: [204, null], auth: 'user', tags: diner } },
    '/api/watches': {
      get: { summary: 'Table alerts of the diner or device (header X-Watch-Token for guests)', ok: [200, 'WatchList'], errors: { 401: 'Neither signed in nor a known device token' }, tags: diner },
      post: { summary: 'Watch a store or a search for a free table (空席通知)', body: watchSchema, ok: [201, 'Watch'], conflicts: { too_many_watches: `the diner or device already has ${WATCHES_ACTIVE_MAX} alerts waiting` }, tags: diner },
    },
    '/api/watches/{id}': { delete: { summary: 'Cancel a table alert', ids: ['id'], ok: [204, null], errors: { 401: 'Neither signed in nor a known device' }, tags: diner } },
    '/api/watches/stream': {
      get: { summary: "The diner's or device's table alerts as they happen (Server-Sent Events, event `watch`)", ok: [200, events], errors: { 401: 'Neither signed in nor a known device' }, tags: diner },
    },
    '/api/push/key': { get: { summary: 'The VAPID public key (base64url) a browser subscribes to Web Push with (applicationServerKey)', ok: [200, 'PushKey'], tags: diner } },
    '/api/push/subscriptions': {
      get: { summary: 'The devices that get notifications, of the diner or of the guest device (header X-Watch-Token)', ok: [200, 'PushSubscriptionList'], errors: { 401: 'Neither signed in nor a known device token' }, tags: diner },
      post: {
        summary: `This browser gets notifications (table alerts, the day-of reminder, the 順番待ち call): its PushSubscription.toJSON(). The endpoint must be https: on a public host. The same endpoint again replaces its keys and owner; past ${PUSH_SUBSCRIPTIONS_MAX} devices the oldest goes`,
        body: pushSubscriptionSchema,
        ok: [201, 'PushSubscription'],
        errors: { 401: 'Neither signed in nor a known device token' },
        tags: diner,
      },
    },
    '/api/push/subscriptions/{id}': { delete: { summary: 'Stop notifications to one device', ids: ['id'], ok: [204, null], errors: { 401: 'Neither signed in nor a known device token' }, tags: diner } },
    '/api/watch-holds/{id}': {
      get: {
        summary: `A start held for the watcher alone (a claimable 空席通知: offered one watcher at a time, in the order they asked, for ${WATCH_HOLD_MINUTES} minutes): signed in, the guest device (header X-Watch-Token) or the mailed link’s token (header X-Hold-Token); another diner’s hold is 404. \`state\` is expired once the deadline has passed`,
        ids: ['id'],
        ok: [200, 'WatchHold'],
        tags: diner,
      },
    },
    '/api/watch-holds/{id}/claim': {
      post: {
        summary: 'Book the held start before its deadline: a booking by the booking rules at the held table, the hold claimed with it in one transaction. An account sends `{}`; a guest adds name, name_kana and phone (the address is the watch’s), and the answer carries the booking’s edit token once. A claim is a booking: it counts against the same booking limits (429 past them, as booking directly; the hold stays the diner’s until its deadline)',
        ids: ['id'],
        body: watchHoldClaimSchema,
        ok: [200, 'WatchHoldClaimed'],
        conflicts: { hold_state: 'the hold is over: past its deadline, or claimed already (of two claims, one wins)', duplicate_booking: CONFLICT.duplicate_booking },
        tags: diner,
      },
    },
    '/api/watches/confirm': { post: { summary: "Confirm a guest's address from the mailed link", body: linkTokenSchema, ok: [204, null], tags: diner } },
    '/api/store/bookings': {
      get: storeCall("A business day's bookings at one of the staff's stores", [200, 'StoreDay'], { query: storeDayQuerySchema }),
      post: storeCall('Write down a phone booking (the online booking’s rules and lock; walk-in-only tables allowed)', [201, 'StoreBooking'], { body: staffBookingSchema, conflicts: bookConflicts }),
    },
    '/api/store/bookings/{id}': {
      patch: storeCall('Mark a booking arrived, no_show or cancelled (with a reason); `mark: null` undoes the last mark within 10 minutes; or change its start, party, table or note (the diner is mailed)', [200, 'StoreBooking'], {
        ids: ['id'],
        body: storeBookingPatchSchema,
        conflicts: {
          slot_taken: 'a change: no fitting table is free then; `next_slots` lists the nearest free starts',
          duplicate_booking: 'a change: the diner would hold two overlapping tables there',
          not_changeable: 'a change or a mark: cancelled, a no-show before its start, a cancellation after its end, or nothing to undo',
          undo_expired: 'an undo more than 10 minutes after the mark',
          table_held: 'undoing a cancellation whose table was taken meanwhile',
        },
      }),
    },
    '/api/store/fees': {
      get: storeCall('The late-cancellation and no-show fees owed for a month’s bookings (by the one fee rule), each due, waived or collected outside Sugu, with the month’s totals in yen; Sugu processes no payment', [200, 'StoreFeeList'], { query: storeFeeQuerySchema }),
    },
    '/api/store/fees/{id}': {
      get: storeCall('One booking’s fee (null when it owes none) and its history', [200, 'StoreFeeDetail'], { ids: ['id'] }),
      patch: storeCall('Waive the fee, mark it collected by the store outside Sugu, or put it back to due (undo), with an optional note; 409 `no_fee` when the booking owes none', [200, 'StoreFee'], { ids: ['id'], body: feeStateSchema, conflicts: { no_fee: 'the booking owes no fee' } }),
    },
    '/api/store/walk-ins': {
      get: storeCall('Walk-ins seated on a business day', [200, 'WalkInList'], { query: storeDayQuerySchema }),
      post: storeCall('Seat a walk-in now at the table named or suggested; holds it for the party’s turn time (never past closing)', [201, 'WalkIn'], {
        body: walkInSchema,
        conflicts: { no_free_table: 'no table fits the party and is free now, or the store is closed now', table_held: 'the table named is taken now (`fields.table_id`)' },
      }),
    },
    '/api/store/walk-ins/suggest': {
      get: storeCall('The table a walk-in of that party size would be seated at now', [200, 'WalkInSuggestion'], { query: walkInSuggestQuerySchema }),
    },
    '/api/store/walk-ins/{id}/free': { post: storeCall('Table free again: the walk-in ends now', [200, 'WalkIn'], { ids: ['id'] }) },
    '/api/store/tables': {
      get: storeCall("The store's tables (online or walk-in only) and turn times", [200, 'StoreTables'], { query: storeQuerySchema }),
      post: storeCall('Add a table (its label not another table’s of the store)', [201, 'StoreTable'], { body: tableCreateSchema }),
    },
    '/api/store/tables/{id}': {
      patch: storeCall('Change a table’s label, kind, party range or online flag (walk-in only when false); a range leaving out a party still to come is 409 `table_in_use`', [200, 'StoreTable'], {
        ids: ['id'],
        body: tableSettingsSchema,
        conflicts: { table_in_use: 'the new party range leaves out a party booked at the table still to come (the field is named)' },
      }),
      delete: storeCall('Remove a table nothing was ever booked at', [204, null], {
        ids: ['id'],
        conflicts: {
          table_in_use: 'bookings, walk-ins or blocks are on record at the table (still to come, or past: make it walk-in only instead)',
        },
      }),
    },
    '/api/store/turn-times': {
      put: storeCall('Set the default stay and the turn time per party size', [200, 'StoreTables'], { body: turnTimesSchema }),
    },
    '/api/store/blocks': {
      get: storeCall('Blocks touching a business day', [200, 'BlockList'], { query: storeDayQuerySchema }),
      post: storeCall('Hold a table for a period', [201, 'Block'], { body: blockSchema, conflicts: { table_held: 'a booking, walk-in or block has the table then (`fields.table_id`)' } }),
    },
    '/api/store/hours': {
      get: storeCall("The store's weekly hours", [200, 'Hours'], { query: storeQuerySchema }),
      put: storeCall('Replace the whole week’s hours (a weekday left out is closed; 0 = Sunday); lists the bookings to come now outside them', [200, 'Hours'], { body: hoursSchema }),
    },
    '/api/store/hours/{weekday}': {
      put: storeCall('Replace one weekday’s openings (0 = Sunday … 6 = Saturday), the other days untouched; lists the bookings to come now outside the hours', [200, 'Hours'], { weekday: true, body: weekdayHoursSchema }),
    },
    '/api/store/closures': {
      get: storeCall('One-off days (臨時休業, changed hours) from today on', [200, 'ClosureList'], { query: storeQuerySchema }),
      put: storeCall('Close a day or change its hours; lists the bookings to come now outside the hours (never cancelled)', [200, 'ClosureChange'], { body: closureSchema }),
    },
    '/api/store/closures/{id}': {
      delete: storeCall('Give a day back its weekly hours; lists the bookings then outside them', [200, 'ClosureChange'], { ids: ['id'] }),
    },
    '/api/store/details': {
      get: storeCall("The store's details as diners see them, with its cancellation-fee policy", [200, 'StoreDetails'], { query: storeQuerySchema }),
      put: storeCall('Replace the details diners see (name, kana, genre, address, station, phone, budget, description); audited', [200, 'StoreDetails'], { body: storeDetailsSchema }),
    },
    '/api/store/policy': {
      get: storeCall('The cancellation-fee policy the fee rule reads', [200, 'StorePolicy'], { query: storeQuerySchema }),
      put: storeCall('Replace the cancellation-fee policy (free until 0–168 hours before, then a fee per person; applies to bookings already made); audited', [200, 'StorePolicy'], { body: storePolicySchema }),
    },
    '/api/store/arrivals': {
      get: storeCall('How the store treats a party that has not arrived: minutes of grace after the start, and whether the table is then released by itself', [200, 'StoreArrivals'], { query: storeQuerySchema }),
      put: storeCall('Set the grace period (0–60 minutes after the start) and automatic release; applies to bookings already made; audited', [200, 'StoreArrivals'], { body: storeArrivalsSchema }),
    },
    '/api/store/queue': {
      get: storeCall('The store’s 順番待ち: the parties waiting or called (with the claim deadline), first come first, and the store’s claim window', [200, 'StoreQueue'], { query: storeQuerySchema }),
    },
    '/api/store/queue/{id}/call': {
      post: storeCall('Call a waiting party: its claim window (the store’s setting) starts now; an unconfirmed call expires by itself at its deadline; audited', [200, 'StoreQueueEntry'], { ids: ['id'], conflicts: { queue_state: 'the party is not waiting (already called, or its entry has ended)' } }),
    },
    '/api/store/queue/{id}/seat': {
      post: storeCall('Seat a waiting or called party (SEATED); audited', [200, 'StoreQueueEntry'], { ids: ['id'], conflicts: { queue_state: 'the entry has already ended' } }),
    },
    '/api/store/queue/{id}/no-show': {
      post: storeCall('Mark a waiting or called party not come (NO_SHOW); audited', [200, 'StoreQueueEntry'], { ids: ['id'], conflicts: { queue_state: 'the entry has already ended' } }),
    },
    '/api/store/banners': {
      get: storeCall("The store's campaign banners: current and upcoming (earliest first), then the latest past ones", [200, 'BannerList'], { query: storeQuerySchema }),
      post: storeCall('Schedule a banner for the diner home on Tokyo business days `starts_on` … `ends_on`; its only link is the store’s own page (409 `too_many_banners` when the store has as many not ended as it may)', [201, 'Banner'], { body: bannerSchema, conflicts: { too_many_banners: `the store already has ${BANNERS_ACTIVE_MAX} banners not ended` } }),
    },
    '/api/store/banners/{id}': {
      get: storeCall('One banner', [200, 'Banner'], { ids: ['id'] }),
      patch: storeCall('Change a banner’s text, link or days', [200, 'Banner'], { ids: ['id'], body: bannerPatchSchema }),
      delete: storeCall('Delete a banner', [204, null], { ids: ['id'] }),
    },
    '/api/admin/stores': {
      post: {
        summary: "Open a company: its first store (no hours nor tables yet) and its owner's invitation, mailed; all or nothing",
        body: adminStoreSchema,
        ok: [201, 'AdminStore'],
        auth: 'admin',
        tags: ['admin'],
      },
    },
    '/api/admin/tenants': {
      get: { summary: 'One page of the companies (`page`, `per_page`), newest first, each with its stores and its invitations still waiting to be taken up, and how many there are in all', query: adminTenantQuerySchema, ok: [200, 'AdminTenantList'], auth: 'admin', tags: ['admin'] },
    },
    '/api/admin/invitations/{id}': {
      delete: { summary: "Withdraw any company's pending invitation: its link then signs no one up (404 when unknown or no longer pending); audited", ids: ['id'], ok: [204, null], auth: 'admin', tags: ['admin'] },
    },
    '/api/store/invitations': {
      get: storeCall("The company's invitations still waiting to be taken up, soonest to expire first (the owner's; 403 for other staff)", [200, 'InvitationList']),
      post: storeCall("The company's owner invites a member of staff to all its stores (mailed; 403 for other staff)", [201, 'Invitation'], { body: invitationSchema }),
    },
    '/api/store/invitations/{id}': {
      delete: storeCall("The owner withdraws one of its company's pending invitations: its link then signs no one up (403 for other staff; 404 for another company's or one no longer pending); audited", [204, null], { ids: ['id'] }),
    },
    '/api/store/signup': {
      post: { summary: 'Take up an invitation: the staff account for the invited address, signed in (400 `invalid_link` for a link unknown, used, withdrawn or expired; the message says which of withdrawn or expired)', body: signupSchema, conflicts: { email_taken: 'an account already has the invited address (sign in to it instead)' }, ok: [201, 'LoginAnswer'], tags: store },
    },
    '/api/store/stream': { get: storeCall("The store's bookings as they change (Server-Sent Events, event `booking`), its walk-ins (`walk_in`) and a change in its 順番待ち (`queue`, with `store_id`: read GET /api/store/queue)", [200, events], { query: storeQuerySchema }) },
    '/api/store/blocks/{id}': { delete: storeCall('Release a block', [204, null], { ids: ['id'] }) },
    '/api/openapi.json': { get: { summary: 'This description', ok: [200, DOCUMENT], tags: ['meta'] } },
  };
}

/** Query parameters from an object schema's properties. */
function queryParameters(schema: z.core.$ZodType): Json[] {
  const s = jsonSchema(schema, 'input') as { properties?: Record<string, Json>; required?: string[] };
  return Object.entries(s.properties ?? {}).map(([name, property]) => ({ name, in: 'query', required: s.required?.includes(name) ?? false, schema: property }));
}

const errorResponse = (description: string) => ({ description, content: { 'application/json': { schema: ref('Error') } } });
/** An error answer whose `error.code` is one of `codes`, each listed with its meaning. */
const codedResponse = (lead: string, codes: Partial<Record<ErrorCode, string>>, headers?: Json) => ({
  description: `${lead}; \`error.code\` is one of:\n${Object.entries(codes)
    .map(([code, meaning]) => `- \`${code}\`: ${meaning}`)
    .join('\n')}`,
  ...(headers ? { headers } : {}),
  content: { 'application/json': { schema: { allOf: [ref('Error'), { type: 'object', properties: { error: { type: 'object', properties: { code: { enum: Object.keys(codes) } } } } }] } } },
});
const retryAfter = { 'Retry-After': { description: 'Seconds to wait before trying again', schema: { type: 'integer' } } };

/**
 * The operation's name for generated clients, from its method and path: `GET /api/stores/{id}/availability`
 * is `getStoresIdAvailability`.
 */
export function operationId(method: string, path: string): string {
  const words = path
    .replace(/^\/api\//, '')
    .split(/[/{}._-]+/)
    .filter(Boolean);
  return method.toLowerCase() + words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
}

function operation(method: string, path: string, op: Operation): Json {
  const [status, answer] = op.ok;
  const content =
    answer === null ? undefined : typeof answer === 'string' ? { 'application/json': { schema: ref(answer) } } : 'type' in answer ? { 'application/json': { schema: answer } } : answer;
  const responses: Json = {
    [status]: { description: 'Success', ...(content ? { content } : {}) },
    '400': errorResponse('Invalid input; `fields` names each invalid field'),
    '429': errorResponse('Too many requests'),
    '431': errorResponse('The request line or headers are larger than the server reads (`headers_too_large`)'),
    '503': errorResponse('The database is away for a moment, or the server is shutting down; try again after Retry-After'),
  };
  if (op.body) responses['413'] = errorResponse('The body is larger than the API reads');
  // Writes from another site's page are refused before anything else (src/server/http/origin.ts).
  if (method !== 'get') responses['403'] = errorResponse('Sent by another site’s page (`cross_origin`)');
  if (op.auth) responses['401'] = errorResponse('Not signed in');
  if (op.auth === 'staff') responses['403'] = errorResponse('Not a store staff account, or (a write) sent by another site’s page');
  if (op.auth === 'admin') responses['403'] = errorResponse("Not the platform admin's account, or (a write) sent by another site’s page");
  for (const [code, description] of Object.entries(op.errors ?? {})) responses[code] = errorResponse(description);
  // A record named in the path, the body or the query that is unknown, or someone else's.
  if (op.ids?.length || op.body || op.query || op.auth) responses['404'] = errorResponse("Not found (someone else's is not found either)");
  if (op.conflicts || op.idempotent) {
    const codes = { ...op.conflicts, ...(op.idempotent ? { idempotency_key_in_flight: CONFLICT.idempotency_key_in_flight } : {}) };
    responses['409'] = codedResponse('Conflict', codes, op.idempotent ? retryAfter : undefined);
  }
  if (op.idempotent) {
    responses['422'] = codedResponse('The Idempotency-Key was used with another request', { idempotency_key_reused: `the key was sent within ${IDEMPOTENCY_KEY_HOURS} hours with another method, path or body; nothing was done` });
    responses['503'] = codedResponse('The database is away for a moment; nothing was done', { database_away: 'try again after Retry-After' }, retryAfter);
  }
  return {
    operationId: operationId(method, path),
    summary: op.summary,
    tags: op.tags,
    // No security: anyone may call it (a guest's token, when it takes one, is a header of its own).
    security: op.auth ? [{ bearer: [] }, { session: [] }] : [],
    parameters: [
      ...(op.ids ?? []).map((name) => ({ name, in: 'path', required: true, schema: { type: 'integer', minimum: 1 } })),
      ...(op.weekday ? [{ name: 'weekday', in: 'path', required: true, description: '0 = Sunday … 6 = Saturday', schema: { type: 'integer', minimum: 0, maximum: 6 } }] : []),
      ...(op.query ? queryParameters(op.query) : []),
      ...(op.idempotent ? [idempotencyKeyParameter] : []),
    ],
    ...(op.body ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(op.body, 'input') } } } } : {}),
    responses,
  };
}

let routes: { pattern: RegExp; literal: boolean; methods: string[] }[] | undefined;

/**
 * The methods the document lists for the API path `pathname` (HEAD wherever GET is), or null when
 * it documents no such path: a method it does not list there is answered 405 with these in `Allow`
 * (src/middleware.ts). A fixed path (`/api/stores/nearby`) wins over a template that also fits it,
 * as Astro's routing does.
 * @example documentedMethods('/api/login') // ['POST', 'DELETE']
 */
export function documentedMethods(pathname: string): string[] | null {
  routes ??= Object.entries(operations(new Date())).map(([path, methods]) => {
    const names = Object.keys(methods).map((m) => m.toUpperCase());
    return {
      pattern: new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
      literal: !path.includes('{'),
      methods: names.includes('GET') ? [...names, 'HEAD'] : names,
    };
  });
  const fitting = routes.filter((r) => r.pattern.test(pathname));
  if (!fitting.length) return null;
  const chosen = fitting.some((r) => r.literal) ? fitting.filter((r) => r.literal) : fitting;
  return [...new Set(chosen.flatMap((r) => r.methods))];
}

/** The document, for `now` (the bookable dates in the availability query depend on the day). */
export function openApiDocument(now = new Date()): Json {
  const paths: Json = {};
  for (const [path, methods] of Object.entries(operations(now))) {
    paths[path] = Object.fromEntries(Object.entries(methods).map(([method, op]) => [method, operation(method, path, op)]));
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Sugu (すぐ予約) JSON API',
      version: '1',
      description: 'Last-minute restaurant bookings in Japan. Times are ISO 8601 with +09:00 (Asia/Tokyo); errors are `{error: {code, message, fields?}}`.',
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    // Relative: the document describes the site that serves it (diner site or store host).
    servers: [{ url: '/', description: 'The site serving this document' }],
    tags: [
      { name: 'account', description: 'Sign-up, sign-in and the account' },
      { name: 'diner', description: 'Finding stores and booking' },
      { name: 'store', description: 'The store host: staff of a store' },
      { name: 'admin', description: "The platform's admins: companies and their stores" },
      { name: 'meta', description: 'About the API' },
    ],
    paths,
    components: {
      schemas: Object.fromEntries(Object.entries(ANSWERS).map(([name, schema]) => [name, jsonSchema(schema, 'output')])),
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'The token from POST /api/login' },
        session: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE },
      },
    },
  };
}
