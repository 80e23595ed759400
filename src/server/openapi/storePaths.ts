/**
 * The store host's and the platform admin's part of the API document: their paths, each with its
 * methods' schemas and answers.
 *
 * One module: one entry per path, read in the order the document lists them; split further, a
 * path's methods would sit apart from each other.
 */
import { BANNERS_ACTIVE_MAX } from '../../lib/contract/limits';
import {
  bannerPatchSchema,
  bannerSchema,
  blockSchema,
  closureSchema,
  hoursSchema,
  staffBookingSchema,
  storeBookingPatchSchema,
  storeFeeQuerySchema,
  feeStateSchema,
  storeDayQuerySchema,
  storeDetailsSchema,
  storeArrivalsSchema,
  storePolicySchema,
  storeQuerySchema,
  tableSettingsSchema,
  tableCreateSchema,
  turnTimesSchema,
  walkInSchema,
  walkInSuggestQuerySchema,
  weekdayHoursSchema,
} from '../../lib/contract/staff';
import { adminStoreSchema, adminTenantQuerySchema, invitationSchema } from '../../lib/contract/admin';
import { signupSchema } from '../staff/invitations';
import { events, storeCall, type Operation } from './components';
import { bookConflicts } from './conflicts';

/** The store host's endpoints (a store's staff) and the platform admin's, by path and method. */
export function storeOperations(): Record<string, Record<string, Operation>> {
  const store = ['store'];
  return {
    '/api/store/bookings': {
      get: storeCall("A business day's bookings at one of the staff's stores", [200, 'StoreDay'], { query: storeDayQuerySchema }),
      post: storeCall('Write down a phone booking (the online booking’s rules and lock; walk-in-only tables allowed)', [201, 'StoreBooking'], {
        body: staffBookingSchema,
        conflicts: bookConflicts,
      }),
    },
    '/api/store/bookings/{id}': {
      patch: storeCall(
        'Mark a booking arrived, no_show or cancelled (with a reason); `mark: null` undoes the last mark within 10 minutes; or change its start, party, table or note (the diner is mailed)',
        [200, 'StoreBooking'],
        {
          ids: ['id'],
          body: storeBookingPatchSchema,
          conflicts: {
            slot_taken: 'a change: no fitting table is free then; `next_slots` lists the nearest free starts',
            duplicate_booking: 'a change: the diner would hold two overlapping tables there',
            not_changeable: 'a change or a mark: cancelled, a no-show before its start, a cancellation after its end, or nothing to undo',
            undo_expired: 'an undo more than 10 minutes after the mark',
            table_held: 'undoing a cancellation whose table was taken meanwhile',
          },
        },
      ),
    },
    '/api/store/fees': {
      get: storeCall(
        'The late-cancellation and no-show fees owed for a month’s bookings (by the one fee rule), each due, waived or collected outside Sugu, with the month’s totals in yen; Sugu processes no payment',
        [200, 'StoreFeeList'],
        { query: storeFeeQuerySchema },
      ),
    },
    '/api/store/fees/{id}': {
      get: storeCall('One booking’s fee (null when it owes none) and its history', [200, 'StoreFeeDetail'], { ids: ['id'] }),
      patch: storeCall(
        'Waive the fee, mark it collected by the store outside Sugu, or put it back to due (undo), with an optional note; 409 `no_fee` when the booking owes none',
        [200, 'StoreFee'],
        { ids: ['id'], body: feeStateSchema, conflicts: { no_fee: 'the booking owes no fee' } },
      ),
    },
    '/api/store/walk-ins': {
      get: storeCall('Walk-ins seated on a business day', [200, 'WalkInList'], { query: storeDayQuerySchema }),
      post: storeCall('Seat a walk-in now at the table named or suggested; holds it for the party’s turn time (never past closing)', [201, 'WalkIn'], {
        body: walkInSchema,
        conflicts: {
          no_free_table: 'no table fits the party and is free now, or the store is closed now',
          table_held: 'the table named is taken now (`fields.table_id`)',
        },
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
      patch: storeCall(
        'Change a table’s label, kind, party range or online flag (walk-in only when false); a range leaving out a party still to come is 409 `table_in_use`',
        [200, 'StoreTable'],
        {
          ids: ['id'],
          body: tableSettingsSchema,
          conflicts: { table_in_use: 'the new party range leaves out a party booked at the table still to come (the field is named)' },
        },
      ),
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
      post: storeCall('Hold a table for a period', [201, 'Block'], {
        body: blockSchema,
        conflicts: { table_held: 'a booking, walk-in or block has the table then (`fields.table_id`)' },
      }),
    },
    '/api/store/hours': {
      get: storeCall("The store's weekly hours", [200, 'Hours'], { query: storeQuerySchema }),
      put: storeCall('Replace the whole week’s hours (a weekday left out is closed; 0 = Sunday); lists the bookings to come now outside them', [200, 'Hours'], {
        body: hoursSchema,
      }),
    },
    '/api/store/hours/{weekday}': {
      put: storeCall(
        'Replace one weekday’s openings (0 = Sunday … 6 = Saturday), the other days untouched; lists the bookings to come now outside the hours',
        [200, 'Hours'],
        { weekday: true, body: weekdayHoursSchema },
      ),
    },
    '/api/store/closures': {
      get: storeCall('One-off days (臨時休業, changed hours) from today on', [200, 'ClosureList'], { query: storeQuerySchema }),
      put: storeCall('Close a day or change its hours; lists the bookings to come now outside the hours (never cancelled)', [200, 'ClosureChange'], {
        body: closureSchema,
      }),
    },
    '/api/store/closures/{id}': {
      delete: storeCall('Give a day back its weekly hours; lists the bookings then outside them', [200, 'ClosureChange'], { ids: ['id'] }),
    },
    '/api/store/details': {
      get: storeCall("The store's details as diners see them, with its cancellation-fee policy", [200, 'StoreDetails'], { query: storeQuerySchema }),
      put: storeCall('Replace the details diners see (name, kana, genre, address, station, phone, budget, description); audited', [200, 'StoreDetails'], {
        body: storeDetailsSchema,
      }),
    },
    '/api/store/policy': {
      get: storeCall('The cancellation-fee policy the fee rule reads', [200, 'StorePolicy'], { query: storeQuerySchema }),
      put: storeCall(
        'Replace the cancellation-fee policy (free until 0–168 hours before, then a fee per person; applies to bookings already made); audited',
        [200, 'StorePolicy'],
        { body: storePolicySchema },
      ),
    },
    '/api/store/arrivals': {
      get: storeCall(
        'How the store treats a party that has not arrived: minutes of grace after the start, and whether the table is then released by itself',
        [200, 'StoreArrivals'],
        { query: storeQuerySchema },
      ),
      put: storeCall(
        'Set the grace period (0–60 minutes after the start) and automatic release; applies to bookings already made; audited',
        [200, 'StoreArrivals'],
        { body: storeArrivalsSchema },
      ),
    },
    '/api/store/queue': {
      get: storeCall(
        'The store’s 順番待ち: the parties waiting or called (with the claim deadline), first come first, and the store’s claim window',
        [200, 'StoreQueue'],
        { query: storeQuerySchema },
      ),
    },
    '/api/store/queue/{id}/call': {
      post: storeCall(
        'Call a waiting party: its claim window (the store’s setting) starts now; an unconfirmed call expires by itself at its deadline; audited',
        [200, 'StoreQueueEntry'],
        { ids: ['id'], conflicts: { queue_state: 'the party is not waiting (already called, or its entry has ended)' } },
      ),
    },
    '/api/store/queue/{id}/seat': {
      post: storeCall('Seat a waiting or called party (SEATED); audited', [200, 'StoreQueueEntry'], {
        ids: ['id'],
        conflicts: { queue_state: 'the entry has already ended' },
      }),
    },
    '/api/store/queue/{id}/no-show': {
      post: storeCall('Mark a waiting or called party not come (NO_SHOW); audited', [200, 'StoreQueueEntry'], {
        ids: ['id'],
        conflicts: { queue_state: 'the entry has already ended' },
      }),
    },
    '/api/store/banners': {
      get: storeCall("The store's campaign banners: current and upcoming (earliest first), then the latest past ones", [200, 'BannerList'], {
        query: storeQuerySchema,
      }),
      post: storeCall(
        'Schedule a banner for the diner home on Tokyo business days `starts_on` … `ends_on`; its only link is the store’s own page (409 `too_many_banners` when the store has as many not ended as it may)',
        [201, 'Banner'],
        { body: bannerSchema, conflicts: { too_many_banners: `the store already has ${BANNERS_ACTIVE_MAX} banners not ended` } },
      ),
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
      get: {
        summary:
          'One page of the companies (`page`, `per_page`), newest first, each with its stores and its invitations still waiting to be taken up, and how many there are in all',
        query: adminTenantQuerySchema,
        ok: [200, 'AdminTenantList'],
        auth: 'admin',
        tags: ['admin'],
      },
    },
    '/api/admin/invitations/{id}': {
      delete: {
        summary: "Withdraw any company's pending invitation: its link then signs no one up (404 when unknown or no longer pending); audited",
        ids: ['id'],
        ok: [204, null],
        auth: 'admin',
        tags: ['admin'],
      },
    },
    '/api/store/invitations': {
      get: storeCall("The company's invitations still waiting to be taken up, soonest to expire first (the owner's; 403 for other staff)", [
        200,
        'InvitationList',
      ]),
      post: storeCall("The company's owner invites a member of staff to all its stores (mailed; 403 for other staff)", [201, 'Invitation'], {
        body: invitationSchema,
      }),
    },
    '/api/store/invitations/{id}': {
      delete: storeCall(
        "The owner withdraws one of its company's pending invitations: its link then signs no one up (403 for other staff; 404 for another company's or one no longer pending); audited",
        [204, null],
        { ids: ['id'] },
      ),
    },
    '/api/store/signup': {
      post: {
        summary:
          'Take up an invitation: the staff account for the invited address, signed in (400 `invalid_link` for a link unknown, used, withdrawn or expired; the message says which of withdrawn or expired)',
        body: signupSchema,
        conflicts: { email_taken: 'an account already has the invited address (sign in to it instead)' },
        ok: [201, 'LoginAnswer'],
        tags: store,
      },
    },
    '/api/store/stream': {
      get: storeCall(
        "The store's bookings as they change (Server-Sent Events, event `booking`), its walk-ins (`walk_in`) and a change in its 順番待ち (`queue`, with `store_id`: read GET /api/store/queue)",
        [200, events],
        { query: storeQuerySchema },
      ),
    },
    '/api/store/blocks/{id}': { delete: storeCall('Release a block', [204, null], { ids: ['id'] }) },
  };
}
