/**
 * The diner site's part of the API document: its paths, each with its methods' schemas and answers.
 *
 * One module: one entry per path, read in the order the document lists them; split further, a
 * path's methods would sit apart from each other.
 */
import { changePasswordSchema, leaveApiSchema, profileSchema } from '../account';
import { forgotSchema, linkTokenSchema, resetSchema, signInSchema, signUpSchema } from '../auth';
import { streamQuerySchema } from '../live';
import { availabilityQuerySchema, listQuerySchema, partyQuerySchema } from '../stores/query';
import { createSchema, editSchema, guestSchema, lateSchema } from '../../lib/contract/booking';
import { WATCH_HOLD_MINUTES, watchHoldClaimSchema, watchSchema } from '../../lib/contract/watches';
import { pushSubscriptionSchema, PUSH_SUBSCRIPTIONS_MAX } from '../../lib/contract/push';
import { queueJoinSchema, QUEUE_CLAIM_MINUTES_DEFAULT, QUEUES_PER_DINER } from '../../lib/contract/queue';
import { WATCHES_ACTIVE_MAX } from '../../lib/contract/limits';
import { events, type Operation } from './components';
import { CONFLICT, bookConflicts, changeConflicts, cancelConflicts, lateConflicts, LATE_SUMMARY } from './conflicts';

/** The diner site's endpoints (accounts, finding stores, booking, alerts, the queue), by path and method. */
export function dinerOperations(now: Date): Record<string, Record<string, Operation>> {
  const diner = ['diner'];
  const account = ['account'];
  return {
    '/api/login': {
      post: {
        summary: "Sign in (diners, store staff and the platform's admins; on the store host staff and admins only, a diner's account gets 403)",
        body: signInSchema,
        ok: [200, 'LoginAnswer'],
        errors: {
          401: 'Wrong e-mail or password (the same answer for an address without an account)',
          403: "On the store host: a diner's account, which signs in on the diner site only",
        },
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
      post: {
        summary: 'Send the verification link again to an unverified account (rate-limited; an account already verified is mailed nothing)',
        ok: [202, null],
        auth: 'user',
        tags: account,
      },
    },
    '/api/password/forgot': { post: { summary: 'Ask for a reset link', body: forgotSchema, ok: [202, null], tags: account } },
    '/api/password/reset': { post: { summary: 'Set a new password from a reset link', body: resetSchema, ok: [204, null], tags: account } },
    '/api/password/verify': { post: { summary: 'Whether a reset link still works', body: linkTokenSchema, ok: [204, null], tags: account } },
    '/api/me': {
      get: { summary: 'The account', ok: [200, 'Account'], auth: 'user', tags: account },
      patch: {
        summary: 'Change the profile',
        body: profileSchema,
        ok: [200, 'Account'],
        auth: 'user',
        conflicts: { email_taken: 'another account has that e-mail address' },
        tags: account,
      },
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
    '/api/stores': {
      get: {
        summary:
          'Stores bookable now: filters (budget, seat kind, tags), sort (nearest, soonest, budget), starts a diner at lat/lng can walk to; on the last page, the matching stores bookable later today and on another day with their next start (`more` shows more of one group)',
        query: listQuerySchema,
        ok: [200, 'StoreList'],
        tags: diner,
      },
    },
    '/api/stores/{id}': { get: { summary: 'One store', ids: ['id'], ok: [200, 'Store'], tags: diner } },
    '/api/stores/{id}/availability': {
      get: { summary: "A business day's starts with free tables", ids: ['id'], query: availabilityQuerySchema(now), ok: [200, 'Availability'], tags: diner },
    },
    '/api/availability/stream': {
      get: { summary: 'Live availability of some stores (Server-Sent Events)', query: streamQuerySchema, ok: [200, events], tags: diner },
    },
    '/api/bookings': {
      get: { summary: "The diner's bookings", ok: [200, 'BookingList'], auth: 'user', tags: diner },
      post: {
        summary: 'Book a table (409 `duplicate_booking` with `booking_url` when the diner already holds an overlapping booking there)',
        body: createSchema,
        ok: [201, 'Booking'],
        auth: 'user',
        idempotent: true,
        conflicts: bookConflicts,
        tags: diner,
      },
    },
    '/api/bookings/{id}': {
      get: { summary: 'One of the diner’s bookings', ids: ['id'], ok: [200, 'Booking'], auth: 'user', tags: diner },
      patch: {
        summary: 'Change it',
        ids: ['id'],
        body: editSchema,
        ok: [200, 'Booking'],
        auth: 'user',
        idempotent: true,
        conflicts: changeConflicts,
        tags: diner,
      },
      delete: { summary: 'Cancel it', ids: ['id'], ok: [200, 'Booking'], auth: 'user', idempotent: true, conflicts: cancelConflicts, tags: diner },
    },
    '/api/bookings/{id}/late': {
      post: {
        summary: LATE_SUMMARY,
        ids: ['id'],
        body: lateSchema,
        ok: [200, 'Booking'],
        auth: 'user',
        idempotent: true,
        conflicts: lateConflicts,
        tags: diner,
      },
    },
    '/api/bookings/{id}/ics': {
      get: { summary: 'It as a calendar file', ids: ['id'], ok: [200, { 'text/calendar': { schema: { type: 'string' } } }], auth: 'user', tags: diner },
    },
    '/api/guest-bookings': {
      post: {
        summary:
          'Book as a guest (the edit token is in this answer only; 409 `duplicate_booking` when the same phone, e-mail or device already holds an overlapping booking there)',
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
    '/api/guest-bookings/{id}/late': {
      post: {
        summary: `${LATE_SUMMARY} (header X-Booking-Token)`,
        ids: ['id'],
        body: lateSchema,
        ok: [200, 'Booking'],
        idempotent: true,
        conflicts: lateConflicts,
        tags: diner,
      },
    },
    '/api/guest-bookings/{id}/ics': {
      get: { summary: 'It as a calendar file', ids: ['id'], ok: [200, { 'text/calendar': { schema: { type: 'string' } } }], tags: diner },
    },
    '/api/stores/{id}/queue': {
      post: {
        summary: `Join the store’s 順番待ち, signed in or as a guest (a guest’s token is in this answer only, and in an HttpOnly cookie on the entry’s paths); the entry tells the parties ahead and the estimated wait as a range. Open while the store is open and no start within the hour is free, or always where the store says so; a called party has the store’s claim window (default ${QUEUE_CLAIM_MINUTES_DEFAULT} minutes) to confirm`,
        ids: ['id'],
        body: queueJoinSchema,
        ok: [201, 'QueueJoined'],
        idempotent: true,
        conflicts: {
          queue_closed: 'a start within the hour is free (book it instead), or the store is closed now',
          too_many_queues: `the diner already waits in ${QUEUES_PER_DINER} queues`,
        },
        tags: diner,
      },
    },
    '/api/queue/{id}': {
      get: {
        summary:
          'One’s 順番待ち entry (signed in, or header X-Queue-Token): its state with a time per state, the parties ahead and the estimated wait (`estimate`: a range in minutes, null when none can be given)',
        ids: ['id'],
        ok: [200, 'QueueEntry'],
        tags: diner,
      },
      delete: {
        summary: 'Leave the queue (waiting or called): the entry is canceled',
        ids: ['id'],
        ok: [200, 'QueueEntry'],
        conflicts: { queue_state: 'the entry has already ended (seated, no-show, canceled or expired)' },
        tags: diner,
      },
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
        summary:
          'The called party confirms within its claim window (signed in, or header X-Queue-Token): a booking starting now for the party, by the booking rules (one table per diner at a time, the party’s size), and the entry SEATED with `booking_id`. A guest’s answer carries the booking’s edit token once (`edit_token`, and `booking_url` opens it) and its browser the booking’s cookies',
        ids: ['id'],
        ok: [200, 'QueueClaimed'],
        conflicts: {
          queue_state:
            'the entry is not called: its claim window is over (it expires), or it was seated, left or marked meanwhile (of two claims, or a claim and the store seating the party, one wins)',
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
      get: {
        summary: 'Table alerts of the diner or device (header X-Watch-Token for guests)',
        ok: [200, 'WatchList'],
        errors: { 401: 'Neither signed in nor a known device token' },
        tags: diner,
      },
      post: {
        summary: 'Watch a store or a search for a free table (空席通知)',
        body: watchSchema,
        ok: [201, 'Watch'],
        conflicts: { too_many_watches: `the diner or device already has ${WATCHES_ACTIVE_MAX} alerts waiting` },
        tags: diner,
      },
    },
    '/api/watches/{id}': {
      delete: { summary: 'Cancel a table alert', ids: ['id'], ok: [204, null], errors: { 401: 'Neither signed in nor a known device' }, tags: diner },
    },
    '/api/watches/stream': {
      get: {
        summary: "The diner's or device's table alerts as they happen (Server-Sent Events, event `watch`)",
        ok: [200, events],
        errors: { 401: 'Neither signed in nor a known device' },
        tags: diner,
      },
    },
    '/api/push/key': {
      get: { summary: 'The VAPID public key (base64url) a browser subscribes to Web Push with (applicationServerKey)', ok: [200, 'PushKey'], tags: diner },
    },
    '/api/push/subscriptions': {
      get: {
        summary: 'The devices that get notifications, of the diner or of the guest device (header X-Watch-Token)',
        ok: [200, 'PushSubscriptionList'],
        errors: { 401: 'Neither signed in nor a known device token' },
        tags: diner,
      },
      post: {
        summary: `This browser gets notifications (table alerts, the day-of reminder, the 順番待ち call): its PushSubscription.toJSON(). The endpoint must be https: on a public host. The same endpoint again replaces its keys and owner; past ${PUSH_SUBSCRIPTIONS_MAX} devices the oldest goes`,
        body: pushSubscriptionSchema,
        ok: [201, 'PushSubscription'],
        errors: { 401: 'Neither signed in nor a known device token' },
        tags: diner,
      },
    },
    '/api/push/subscriptions/{id}': {
      delete: {
        summary: 'Stop notifications to one device',
        ids: ['id'],
        ok: [204, null],
        errors: { 401: 'Neither signed in nor a known device token' },
        tags: diner,
      },
    },
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
        summary:
          'Book the held start before its deadline: a booking by the booking rules at the held table, the hold claimed with it in one transaction. An account sends `{}`; a guest adds name, name_kana and phone (the address is the watch’s), and the answer carries the booking’s edit token once. A claim is a booking: it counts against the same booking limits (429 past them, as booking directly; the hold stays the diner’s until its deadline)',
        ids: ['id'],
        body: watchHoldClaimSchema,
        ok: [200, 'WatchHoldClaimed'],
        conflicts: {
          hold_state: 'the hold is over: past its deadline, or claimed already (of two claims, one wins)',
          duplicate_booking: CONFLICT.duplicate_booking,
        },
        tags: diner,
      },
    },
    '/api/watches/confirm': { post: { summary: "Confirm a guest's address from the mailed link", body: linkTokenSchema, ok: [204, null], tags: diner } },
  };
}
