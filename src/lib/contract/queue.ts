/**
 * 順番待ち: a store's queue of walk-in parties, joined from the phone when nothing is free within
 * the hour (or always, where the store says so). The states follow the waitlist states Reserve
 * with Google names, so a partner feed can be built on them: WAITING → SERVICE_READY (called, with
 * a claim window) → SEATED, NO_SHOW, CANCELED or EXPIRED. This table is the one source of which
 * moves are legal; every other move is refused with 409 `queue_state`.
 */
import * as z from 'zod/mini';
import { GUEST_NAME_MAX, PARTY_MAX, PARTY_MIN } from './limits';
import { emailField, phoneField, requiredText } from './fields';
import { bookingSchema } from './responses';

export const QUEUE_STATES = ['waiting', 'called', 'seated', 'no_show', 'canceled', 'expired'] as const;
export type QueueState = (typeof QUEUE_STATES)[number];

/** What each state may become. Final states become nothing. */
export const QUEUE_TRANSITIONS: Record<QueueState, readonly QueueState[]> = {
  // Waiting: called by the store, seated at the door, or left by the diner.
  waiting: ['called', 'seated', 'no_show', 'canceled'],
  // Called: the diner confirms (seated), leaves, the store marks them, or the window runs out.
  called: ['seated', 'no_show', 'canceled', 'expired'],
  seated: [],
  no_show: [],
  canceled: [],
  expired: [],
};

export const canMove = (from: QueueState, to: QueueState): boolean => QUEUE_TRANSITIONS[from].includes(to);

/** Still in the queue: counted against the diner's limit and in the parties ahead. */
export const QUEUE_ACTIVE: readonly QueueState[] = ['waiting', 'called'];

/** Reserve with Google's waitlist names for the states (for a partner feed). */
export const QUEUE_RWG_STATE: Record<QueueState, string> = {
  waiting: 'WAITING',
  called: 'SERVICE_READY',
  seated: 'SEATED',
  no_show: 'NO_SHOW',
  canceled: 'CANCELED',
  expired: 'EXPIRED',
};

/** The claim window a store gives a called party: its default, and the bounds of its setting. */
export const QUEUE_CLAIM_MINUTES_DEFAULT = 5;
export const QUEUE_CLAIM_MINUTES_MIN = 1;
export const QUEUE_CLAIM_MINUTES_MAX = 30;
/** One diner may wait in at most this many stores' queues at once. */
export const QUEUES_PER_DINER = 3;
/** The queue opens when the store has no start within this many minutes (unless it is always open). */
export const QUEUE_OPENS_WITHOUT_START_MINUTES = 60;

/** When the store's queue is open: only while nothing is free within the hour, or always. */
export const QUEUE_MODES = ['when_full', 'always'] as const;
export type QueueMode = (typeof QUEUE_MODES)[number];

/** An estimated wait, in minutes: never a false single minute. */
export const queueEstimateSchema = z.object({ min_minutes: z.int(), max_minutes: z.int() });

/** A queue entry as its diner sees it (GET /api/queue/{id}). */
export const queueEntryJsonSchema = z.object({
  id: z.int(),
  store_id: z.int(),
  store_name: z.string(),
  party_size: z.int(),
  name: z.string(),
  state: z.enum(QUEUE_STATES),
  /** Parties ahead still waiting or called; 0 once called or done. */
  ahead: z.int(),
  estimate: z.nullable(queueEstimateSchema),
  joined_at: z.string(),
  called_at: z.nullable(z.string()),
  claim_deadline: z.nullable(z.string()),
  seated_at: z.nullable(z.string()),
  ended_at: z.nullable(z.string()),
  booking_id: z.nullable(z.int()),
});
export type QueueEntryJson = z.infer<typeof queueEntryJsonSchema>;

/** A guest's entry just made: the entry and, once, the link's token (kept only as its hash). */
export const queueJoinedJsonSchema = z.object({ entry: queueEntryJsonSchema, token: z.nullable(z.string()) });

/**
 * `POST /api/queue/{id}/claim`: the called party confirmed within its window. The entry (now
 * seated, with `booking_id`), the booking made for it starting now, and its page: for a guest the
 * link that opens it once (its edit token, in this answer and the booking's mail only).
 */
export const queueClaimedJsonSchema = z.object({
  entry: queueEntryJsonSchema,
  booking: bookingSchema,
  booking_url: z.string(),
  edit_token: z.nullable(z.string()),
});

/**
 * `POST /api/stores/{id}/queue`: join the store's 順番待ち. A phone number or an e-mail address
 * (either, or both) so the store can reach the party when it is called.
 */
export const queueJoinSchema = z
  .object({
    party_size: z.int().check(z.minimum(PARTY_MIN), z.maximum(PARTY_MAX)),
    name: requiredText(GUEST_NAME_MAX),
    phone: z.optional(phoneField),
    email: z.optional(emailField),
  })
  .check(z.refine((v) => v.phone !== undefined || v.email !== undefined, { message: 'queue.validation.contact', path: ['phone'] }));
export type QueueJoinInput = z.infer<typeof queueJoinSchema>;

/** Where an entry lives, for pages, the API and cookie scopes alike. */
export const queuePaths = {
  /** The store's join form (plain HTML; the store page links or embeds it). */
  join: (storeId: number) => `/store/${storeId}/queue`,
  /** The diner's page of one entry. */
  page: (id: number) => `/queue/${id}`,
  api: (id: number) => `/api/queue/${id}`,
  claimApi: (id: number) => `/api/queue/${id}/claim`,
  /** A guest's device follows the entry by push (its call). */
  pushApi: (id: number) => `/api/queue/${id}/push`,
  /** The page opened once with a token (the guest's link for another device, the call's mail). */
  link: (id: number, token: string) => `/queue/${id}?token=${encodeURIComponent(token)}`,
  joinApi: (storeId: number) => `/api/stores/${storeId}/queue`,
};

/** A queue entry as the store sees it: who, how many, how to reach them, and where it stands. */
export const storeQueueEntrySchema = z.object({
  id: z.int(),
  party_size: z.int(),
  name: z.string(),
  phone: z.nullable(z.string()),
  email: z.nullable(z.string()),
  state: z.enum(QUEUE_STATES),
  joined_at: z.string(),
  called_at: z.nullable(z.string()),
  claim_deadline: z.nullable(z.string()),
});
export type StoreQueueEntryJson = z.infer<typeof storeQueueEntrySchema>;

/** `GET /api/store/queue`: the parties in the store's queue (waiting or called), in the order they joined. */
export const storeQueueSchema = z.object({ store_id: z.int(), claim_minutes: z.int(), items: z.array(storeQueueEntrySchema) });

/** What staff may do with an entry: call it (the claim window starts), seat it, or mark it not come. */
export const STAFF_QUEUE_ACTIONS = { call: 'called', seat: 'seated', 'no-show': 'no_show' } as const satisfies Record<string, QueueState>;
export type StaffQueueAction = keyof typeof STAFF_QUEUE_ACTIONS;
