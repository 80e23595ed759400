/**
 * Sugu database schema (Drizzle pg-core).
 *
 * Things Drizzle cannot express live in the custom migration
 * `db/migrations/0002_constraints.sql`:
 *   - the two booking exclusion constraints (btree_gist),
 *   - the GiST index on (area_id, ll_to_earth(lat, lng)) for nearest-first search.
 * Never run `drizzle-kit push`: it would drop those.
 *
 * One module: drizzle-kit reads the schema from this one file (drizzle.config.ts) to write
 * migrations, and the tables refer to each other through foreign keys and shared enums; split,
 * every part would import the others.
 */
import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  check,
  date,
  doublePrecision,
  foreignKey,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  unique,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

import {
  ATTENDANCES,
  BOOKING_KINDS,
  LATE_NOTICES,
  BOOKING_STATUSES,
  FEE_STATES,
  INVITATION_ROLES,
  TABLE_KINDS,
  USER_ROLES,
  type Genre,
} from '../../lib/contract/enums';
import { GRACE_MINUTES_DEFAULT, GRACE_MINUTES_MAX } from '../../lib/contract/limits';
import type { WatchHoldState } from '../../lib/contract/watches';
import { QUEUE_CLAIM_MINUTES_DEFAULT, QUEUE_CLAIM_MINUTES_MAX, QUEUE_CLAIM_MINUTES_MIN, QUEUE_MODES, QUEUE_STATES } from '../../lib/contract/queue';

const tstz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const tableKind = pgEnum('table_kind', TABLE_KINDS);
export const bookingStatus = pgEnum('booking_status', BOOKING_STATUSES);
export const userRole = pgEnum('user_role', USER_ROLES);
export const bookingKind = pgEnum('booking_kind', BOOKING_KINDS);
export const attendance = pgEnum('attendance', ATTENDANCES);
export const lateNotice = pgEnum('late_notice', LATE_NOTICES);
export const feeState = pgEnum('fee_state', FEE_STATES);
export const invitationRole = pgEnum('invitation_role', INVITATION_ROLES);
export const queueState = pgEnum('queue_state', QUEUE_STATES);
export const queueMode = pgEnum('queue_mode', QUEUE_MODES);

export interface StorePhoto {
  src: string;
  width: number;
  height: number;
  alt: string;
}

export const areas = pgTable('areas', {
  id: serial('id').primaryKey(),
  slug: text('slug').notNull().unique(),
  name: text('name').notNull(),
  nameKana: text('name_kana').notNull(),
  sort: integer('sort').notNull().default(0),
});

/** A restaurant company: its stores and its staff belong to it. */
export const tenants = pgTable('tenants', {
  id: serial('id').primaryKey(),
  /** Stable name the store host keeps in its auth state (`tenant`). */
  slug: text('slug').notNull().unique(),
  name: text('name').notNull(),
  createdAt: tstz('created_at').notNull().defaultNow(),
});

export const stores = pgTable(
  'stores',
  {
    id: serial('id').primaryKey(),
    /** Null for a store no company manages through Sugu yet. */
    tenantId: integer('tenant_id').references(() => tenants.id),
    areaId: integer('area_id')
      .notNull()
      .references(() => areas.id),
    name: text('name').notNull(),
    nameKana: text('name_kana').notNull(),
    genre: text('genre').$type<Genre>().notNull(),
    address: text('address').notNull(),
    station: text('station').notNull(),
    walkMinutes: integer('walk_minutes').notNull(),
    lat: doublePrecision('lat').notNull(),
    lng: doublePrecision('lng').notNull(),
    phone: text('phone').notNull(),
    budgetMin: integer('budget_min').notNull(),
    budgetMax: integer('budget_max').notNull(),
    description: text('description').notNull().default(''),
    photos: jsonb('photos').$type<StorePhoto[]>().notNull().default(sql`'[]'::jsonb`),
    /** The default stay (turn time) in minutes. */
    stayMinutes: integer('stay_minutes').notNull().default(120),
    /** Turn times of some party sizes, `[party, minutes]` pairs; other sizes stay `stayMinutes`. */
    turnTimes: jsonb('turn_times').$type<[number, number][]>().notNull().default(sql`'[]'::jsonb`),
    /** The store's own wording of its policy; the two numbers below are what applies. */
    cancellationPolicy: text('cancellation_policy').notNull().default(''),
    /** Cancelling is free until this many hours before the start (src/server/bookings/fee.ts). */
    cancelFreeHours: integer('cancel_free_hours').notNull().default(0),
    /** The fee per person for cancelling later than that; 0: no fee. */
    cancelFeeYen: integer('cancel_fee_yen').notNull().default(0),
    /** Minutes after a booking's start before a party that has not arrived may have its table released. */
    graceMinutes: integer('grace_minutes').notNull().default(GRACE_MINUTES_DEFAULT),
    /** The table of a party not arrived by the end of the grace period is released without staff (when time remains). */
    autoRelease: boolean('auto_release').notNull().default(false),
    /** Minutes a called party of the 順番待ち has to confirm before the next may be called. */
    queueClaimMinutes: integer('queue_claim_minutes').notNull().default(QUEUE_CLAIM_MINUTES_DEFAULT),
    /** Whether diners may queue only while nothing is free within the hour, or always. */
    queueMode: queueMode('queue_mode').notNull().default('when_full'),
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    searchTerms: text('search_terms').array().notNull().default(sql`'{}'::text[]`),
    createdAt: tstz('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('stores_area_idx').on(t.areaId),
    index('stores_genre_idx').on(t.genre),
    index('stores_search_terms_gin').using('gin', t.searchTerms),
    check('stores_budget_check', sql`${t.budgetMax} >= ${t.budgetMin}`),
    check('stores_stay_check', sql`${t.stayMinutes} > 0`),
    check(
      'stores_queue_claim_check',
      sql`${t.queueClaimMinutes} between ${sql.raw(String(QUEUE_CLAIM_MINUTES_MIN))} and ${sql.raw(String(QUEUE_CLAIM_MINUTES_MAX))}`,
    ),
    check('stores_grace_check', sql`${t.graceMinutes} between 0 and ${sql.raw(String(GRACE_MINUTES_MAX))}`),
    check('stores_cancel_fee_check', sql`${t.cancelFeeYen} >= 0 and ${t.cancelFreeHours} between 0 and 168`),
    // Target of staff_stores' (store, tenant) key: staff only ever reach their own company's stores.
    unique('stores_id_tenant_key').on(t.id, t.tenantId),
  ],
);

export const storeHours = pgTable(
  'store_hours',
  {
    id: serial('id').primaryKey(),
    storeId: integer('store_id')
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
    /** 0 = Sunday … 6 = Saturday, Asia/Tokyo. */
    weekday: smallint('weekday').notNull(),
    /** Minutes from that day's midnight (JST). */
    opensMin: integer('opens_min').notNull(),
    /** May exceed 1440 for hours running past midnight; 0–1440 means open 24 hours. */
    closesMin: integer('closes_min').notNull(),
  },
  (t) => [
    index('store_hours_store_idx').on(t.storeId, t.weekday),
    check('store_hours_weekday_check', sql`${t.weekday} between 0 and 6`),
    check('store_hours_range_check', sql`${t.opensMin} >= 0 and ${t.opensMin} < 1440 and ${t.closesMin} > ${t.opensMin} and ${t.closesMin} <= 2880`),
  ],
);

/**
 * One-off days (臨時休業 or changed hours): on `date` (Tokyo), `hours` replace the weekly hours of
 * its weekday; an empty list closes the day. Pairs of minutes from that day's midnight, like
 * store_hours (closing may pass 1440).
 */
export const storeClosures = pgTable(
  'store_closures',
  {
    id: serial('id').primaryKey(),
    storeId: integer('store_id')
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
    date: date('date', { mode: 'string' }).notNull(),
    hours: jsonb('hours').$type<[number, number][]>().notNull().default(sql`'[]'::jsonb`),
    note: text('note').notNull().default(''),
    updatedAt: tstz('updated_at').notNull().defaultNow(),
  },
  (t) => [unique('store_closures_store_date_key').on(t.storeId, t.date)],
);

/**
 * Campaign banners a store schedules for the diner home: shown from `starts_on` to `ends_on`
 * (business days in Asia/Tokyo, both included). The only link a banner carries is to the store's
 * own page (`link_to_store`), never an address typed by staff.
 */
export const campaignBanners = pgTable(
  'campaign_banners',
  {
    id: serial('id').primaryKey(),
    storeId: integer('store_id')
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    body: text('body').notNull().default(''),
    linkToStore: boolean('link_to_store').notNull().default(false),
    startsOn: date('starts_on', { mode: 'string' }).notNull(),
    endsOn: date('ends_on', { mode: 'string' }).notNull(),
    /** Null once the account is deleted. */
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: tstz('created_at').notNull().defaultNow(),
    updatedAt: tstz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('campaign_banners_days_idx').on(t.endsOn, t.startsOn),
    index('campaign_banners_store_idx').on(t.storeId, t.endsOn),
    check('campaign_banners_days_check', sql`${t.endsOn} >= ${t.startsOn}`),
  ],
);

export const storeTables = pgTable(
  'store_tables',
  {
    id: serial('id').primaryKey(),
    storeId: integer('store_id')
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
    label: text('label').notNull(),
    kind: tableKind('kind').notNull(),
    minParty: integer('min_party').notNull().default(1),
    maxParty: integer('max_party').notNull(),
    /** False: walk-in only, never offered to diners nor booked online (staff may still block it). */
    online: boolean('online').notNull().default(true),
  },
  (t) => [index('store_tables_store_idx').on(t.storeId), check('store_tables_party_check', sql`${t.minParty} >= 1 and ${t.maxParty} >= ${t.minParty}`)],
);

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull(),
    /**
     * Null for an account made by a provider sign-in (「LINEでログイン」) until its diner sets a
     * password: it then signs in only through its providers, so the last one cannot be unlinked.
     */
    passwordHash: text('password_hash'),
    name: text('name').notNull(),
    nameKana: text('name_kana').notNull().default(''),
    phone: text('phone').notNull().default(''),
    role: userRole('role').notNull().default('diner'),
    /** The staff's company; always set for staff, never for diners. */
    tenantId: integer('tenant_id').references(() => tenants.id),
    /** A staff account that owns its company's account on Sugu: it may invite further staff. */
    owner: boolean('owner').notNull().default(false),
    /**
     * When the account proved it reads its e-mail address (the verification link, an invitation or a
     * password reset); null until then, and again after the address changes. Until then nothing but
     * the mails that prove it goes to the address (src/server/mail/outbox.ts).
     */
    emailVerifiedAt: tstz('email_verified_at'),
    createdAt: tstz('created_at').notNull().defaultNow(),
    updatedAt: tstz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_email_lower_idx').on(sql`lower(${t.email})`),
    // Staff belong to a company; diners and the platform's admins to none.
    check('users_role_tenant_check', sql`(${t.role} = 'staff') = (${t.tenantId} is not null)`),
    check('users_owner_check', sql`not ${t.owner} or ${t.role} = 'staff'`),
    unique('users_id_tenant_key').on(t.id, t.tenantId),
  ],
);

/**
 * Which stores a staff account works for: one, or several of its own company. Both keys carry the
 * tenant, so a staff account linked to another company's store cannot be written.
 */
export const staffStores = pgTable(
  'staff_stores',
  {
    userId: integer('user_id').notNull(),
    storeId: integer('store_id').notNull(),
    tenantId: integer('tenant_id').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.storeId] }),
    index('staff_stores_store_idx').on(t.storeId),
    foreignKey({ columns: [t.userId, t.tenantId], foreignColumns: [users.id, users.tenantId], name: 'staff_stores_user_fk' }).onDelete('cascade'),
    foreignKey({ columns: [t.storeId, t.tenantId], foreignColumns: [stores.id, stores.tenantId], name: 'staff_stores_store_fk' }).onDelete('cascade'),
  ],
);

/** What staff did, who and when: one row per action through the store API. */
export const staffAudit = pgTable(
  'staff_audit',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** Null once the account is deleted; `actorEmail` still says who it was. */
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    actorEmail: text('actor_email').notNull(),
    storeId: integer('store_id').references(() => stores.id, { onDelete: 'cascade' }),
    /** What was done: `sign_in`, a booking marked, a table blocked … (src/server/staff/audit.ts). */
    action: text('action').notNull(),
    /** The booking, block or setting acted on, when there is one. */
    targetId: integer('target_id'),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    /** What the change replaced and what it left (null where there was nothing before or after). */
    before: jsonb('before').$type<Record<string, unknown>>(),
    after: jsonb('after').$type<Record<string, unknown>>(),
    createdAt: tstz('created_at').notNull().defaultNow(),
  },
  (t) => [index('staff_audit_store_idx').on(t.storeId, t.createdAt), index('staff_audit_user_idx').on(t.userId, t.createdAt)],
);

/**
 * An invitation to make a staff account at a company's stores: sent by the platform's admin (the
 * company's owner) or by its owner (further staff). The link's token is random and only its hash is
 * kept; it is spent once, within its days.
 */
export const invitations = pgTable(
  'invitations',
  {
    id: serial('id').primaryKey(),
    /** SHA-256 hex of the link's token. */
    tokenHash: text('token_hash').notNull().unique(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    /** The stores the new account will work for (all of the company's). */
    storeIds: integer('store_ids').array().notNull(),
    role: invitationRole('role').notNull(),
    email: text('email').notNull(),
    /** Null once the inviting account is deleted. */
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: tstz('created_at').notNull().defaultNow(),
    expiresAt: tstz('expires_at').notNull(),
    usedAt: tstz('used_at'),
    /** Set when the owner or the admin withdrew the invitation before it was taken up: its link then signs no one up. */
    revokedAt: tstz('revoked_at'),
    /** The account the invitation made. */
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [index('invitations_tenant_idx').on(t.tenantId)],
);

export const sessions = pgTable(
  'sessions',
  {
    /** SHA-256 hex of the session token; the token itself is never stored. */
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: tstz('created_at').notNull().defaultNow(),
    expiresAt: tstz('expires_at').notNull(),
    lastSeenAt: tstz('last_seen_at').notNull().defaultNow(),
    userAgent: text('user_agent'),
  },
  (t) => [index('sessions_user_idx').on(t.userId), index('sessions_expires_idx').on(t.expiresAt)],
);

export const passwordResets = pgTable(
  'password_resets',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: tstz('created_at').notNull().defaultNow(),
    expiresAt: tstz('expires_at').notNull(),
    usedAt: tstz('used_at'),
  },
  (t) => [index('password_resets_user_idx').on(t.userId)],
);

/**
 * Accounts of OpenID Connect providers (LINEでログイン …) linked to a Sugu account: one provider
 * account (issuer's subject) belongs to at most one Sugu account. `email` is what the provider said,
 * kept for the record only; the account's own address is in users.
 */
export const oidcIdentities = pgTable(
  'oidc_identities',
  {
    id: serial('id').primaryKey(),
    provider: text('provider').notNull(),
    subject: text('subject').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    email: text('email'),
    createdAt: tstz('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('oidc_identities_subject_idx').on(t.provider, t.subject), index('oidc_identities_user_idx').on(t.userId)],
);

/**
 * Sign-ins under way at a provider: what the callback must check (nonce) and prove (PKCE verifier),
 * kept on the server under the hash of their `state`, and deleted by the callback that uses them, so
 * a `state` answers once. The browser holds the state itself in a short-lived HttpOnly cookie.
 */
export const oidcTransactions = pgTable('oidc_transactions', {
  stateHash: text('state_hash').primaryKey(),
  provider: text('provider').notNull(),
  nonce: text('nonce').notNull(),
  codeVerifier: text('code_verifier').notNull(),
  next: text('next').notNull(),
  /**
   * 'signin' (sign in or link), or 'leave': a signed-in diner without a password proving it is
   * them by signing in to the provider afresh, to delete the account (src/server/oidcLeave.ts).
   */
  purpose: text('purpose').notNull().default('signin'),
  /** The signed-in account a 'leave' was started by: the callback acts only for it. */
  userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
  createdAt: tstz('created_at').notNull().defaultNow(),
  expiresAt: tstz('expires_at').notNull(),
});

/**
 * A provider account whose verified address is an existing account's, waiting for the diner to sign
 * in to that account (the proof that it is theirs) before the two are linked. Token hashed, single use.
 */
export const oidcPendingLinks = pgTable('oidc_pending_links', {
  tokenHash: text('token_hash').primaryKey(),
  provider: text('provider').notNull(),
  subject: text('subject').notNull(),
  email: text('email').notNull(),
  expiresAt: tstz('expires_at').notNull(),
});

/**
 * Links that verify an account's e-mail address: the token's hash only, single use, with the
 * address it was sent to (a link mailed before the address changed verifies nothing).
 */
export const emailVerifications = pgTable(
  'email_verifications',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    createdAt: tstz('created_at').notNull().defaultNow(),
    expiresAt: tstz('expires_at').notNull(),
    usedAt: tstz('used_at'),
  },
  (t) => [index('email_verifications_user_idx').on(t.userId)],
);

export const bookings = pgTable(
  'bookings',
  {
    id: serial('id').primaryKey(),
    /** Short human code, e.g. SG-7K3Q9P. */
    code: text('code').notNull().unique(),
    storeId: integer('store_id')
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
    tableId: integer('table_id')
      .notNull()
      .references(() => storeTables.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    partySize: integer('party_size').notNull(),
    startsAt: tstz('starts_at').notNull(),
    endsAt: tstz('ends_at').notNull(),
    status: bookingStatus('status').notNull().default('confirmed'),
    seatPreference: tableKind('seat_preference'),
    note: text('note').notNull().default(''),
    guestName: text('guest_name'),
    guestNameKana: text('guest_name_kana'),
    guestPhone: text('guest_phone'),
    guestEmail: text('guest_email'),
    guestTokenHash: text('guest_token_hash'),
    /**
     * The hash of the browser's device id (the `sugu_device` cookie) a diner booked from, so one
     * device cannot hold two overlapping tables at a store under other names (利用規約 第4条). Never
     * the id itself: that is the browser's key to its idempotent retries. Null for staff bookings.
     */
    deviceHash: text('device_hash'),
    /**
     * The hash of the day-of reminder's own edit link for a guest: the confirmation's token is kept
     * only as a hash, so the reminder cannot mail it again.
     */
    reminderTokenHash: text('reminder_token_hash'),
    /** The language the diner booked (or last changed it) in: later mails are written in it. */
    locale: text('locale').notNull().default('ja'),
    /** When the day-of reminder is due; null when none is (booked too late, sent, or never wanted). */
    remindAt: tstz('remind_at'),
    createdAt: tstz('created_at').notNull().defaultNow(),
    updatedAt: tstz('updated_at').notNull().defaultNow(),
    /**
     * How many times the booking's time, party, note or status has changed: its calendar event's
     * SEQUENCE, so a calendar replaces the event instead of adding a second. Counted by the
     * trigger `bookings_revision` (migration booking_calendar_revision) on every write path alike.
     */
    revision: integer('revision').notNull().default(0),
    cancelledAt: tstz('cancelled_at'),
    /**
     * A block is the store holding a table itself (a walk-in, a private event): a row like a
     * booking, so the one exclusion constraint keeps blocks and bookings apart. Blocks have no
     * diner; their reason is the note.
     */
    kind: bookingKind('kind').notNull().default('booking'),
    /** Marked by the store at the door. */
    attendance: attendance('attendance'),
    /** Set when the store cancelled the booking, with the reason it gave the diner. */
    storeCancelReason: text('store_cancel_reason'),
    /** When the store last marked it (arrived, no-show, cancelled): a mark can be undone for a while after. */
    markedAt: tstz('marked_at'),
    /** The diner's latest word on the way (on their way, 10 or 15 minutes late) and when they sent it. */
    lateNotice: lateNotice('late_notice'),
    lateNoticeAt: tstz('late_notice_at'),
    /**
     * What the cancellation fee is reckoned from when a change the store made left the diner's fee
     * where it stood (src/lib/contract/fee.ts `feeBasisAfter`); null: the start and party held.
     */
    feeStartsAt: tstz('fee_starts_at'),
    feePartySize: integer('fee_party_size'),
  },
  (t) => [
    index('bookings_store_starts_idx').on(t.storeId, t.startsAt),
    index('bookings_remind_idx').on(t.remindAt).where(sql`${t.remindAt} is not null`),
    index('bookings_user_idx').on(t.userId, t.startsAt),
    index('bookings_table_idx').on(t.tableId),
    check('bookings_period_check', sql`${t.endsAt} > ${t.startsAt}`),
    check('bookings_party_check', sql`${t.partySize} > 0`),
  ],
);

/**
 * A party in a store's 順番待ち (src/lib/contract/queue.ts): who, how many, how to reach them, and a
 * timestamp per state so a partner feed can be built on it. A signed-in diner's entry is theirs by
 * account; a guest's by a random link token kept only as its hash.
 */
export const queueEntries = pgTable(
  'queue_entries',
  {
    id: serial('id').primaryKey(),
    storeId: integer('store_id')
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
    /** A deleted account's entries go with it (a guest's are kept by their token). */
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    guestTokenHash: text('guest_token_hash'),
    /**
     * The hash of the link in the call's mail, which opens a guest's entry on any device: the join's
     * token is kept only as a hash, so the call mail cannot carry it again.
     */
    mailTokenHash: text('mail_token_hash'),
    /** The hash of the browser's device id, so one device's guest entries count together. */
    deviceHash: text('device_hash'),
    partySize: integer('party_size').notNull(),
    name: text('name').notNull(),
    phone: text('phone'),
    email: text('email'),
    locale: text('locale').notNull().default('ja'),
    state: queueState('state').notNull().default('waiting'),
    joinedAt: tstz('joined_at').notNull().defaultNow(),
    calledAt: tstz('called_at'),
    /** Set when called: after it, an unconfirmed call expires and the next party may be called. */
    claimDeadline: tstz('claim_deadline'),
    seatedAt: tstz('seated_at'),
    noShowAt: tstz('no_show_at'),
    canceledAt: tstz('canceled_at'),
    expiredAt: tstz('expired_at'),
    /** The booking made when the called diner confirmed. */
    bookingId: integer('booking_id').references(() => bookings.id, { onDelete: 'set null' }),
  },
  (t) => [
    index('queue_entries_store_idx').on(t.storeId, t.state, t.joinedAt),
    index('queue_entries_user_idx').on(t.userId, t.state),
    index('queue_entries_device_idx').on(t.deviceHash, t.state),
    index('queue_entries_deadline_idx').on(t.claimDeadline).where(sql`${t.state} = 'called'`),
    unique('queue_entries_token_key').on(t.guestTokenHash),
    unique('queue_entries_mail_token_key').on(t.mailTokenHash),
    check('queue_entries_party_check', sql`${t.partySize} > 0`),
    check('queue_entries_contact_check', sql`${t.phone} is not null or ${t.email} is not null`),
    check('queue_entries_owner_check', sql`${t.userId} is not null or ${t.guestTokenHash} is not null`),
  ],
);

/**
 * What the store did about a fee a booking owes (src/server/staff/fees.ts): waived it, or collected
 * it itself outside Sugu, with an optional note. No row: the fee is still due. The amount is never
 * stored: it is the fee rule's (src/lib/contract/fee.ts), the one the diner was told.
 */
export const bookingFees = pgTable('booking_fees', {
  bookingId: integer('booking_id')
    .primaryKey()
    .references(() => bookings.id, { onDelete: 'cascade' }),
  state: feeState('state').notNull().default('due'),
  note: text('note').notNull().default(''),
  updatedAt: tstz('updated_at').notNull().defaultNow(),
  /** Null once the account is deleted; the staff audit still says who it was. */
  updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
});

export const favourites = pgTable(
  'favourites',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    storeId: integer('store_id')
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
    createdAt: tstz('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.storeId] })],
);

export const viewingHistory = pgTable(
  'viewing_history',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    storeId: integer('store_id')
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
    viewedAt: tstz('viewed_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.storeId] }), index('viewing_history_user_viewed_idx').on(t.userId, t.viewedAt)],
);

/**
 * Every mail the app sends, in the diner's language. Delivered by src/server/mail/delivery.ts: a
 * worker claims due rows for a lease (`claimed_until`, `for update skip locked`), so several
 * instances never send one row twice; a failed attempt is kept in `error` and retried at
 * `next_attempt_at`, until `failed_at` says it was given up.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: serial('id').primaryKey(),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull(),
    bodyText: text('body_text').notNull(),
    bodyHtml: text('body_html').notNull().default(''),
    /** The language the mail is written in (the diner's). */
    locale: text('locale').notNull().default('ja'),
    kind: text('kind').notNull(),
    /** What the mail is about (`booking:12`): a booking's changes are coalesced on it (src/server/mail/outbox.ts). */
    about: text('about'),
    /** An iCalendar file (RFC 5546, with its METHOD) sent with the mail as `invite.ics`, or null. */
    calendar: text('calendar'),
    createdAt: tstz('created_at').notNull().defaultNow(),
    sentAt: tstz('sent_at'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: tstz('next_attempt_at').notNull().defaultNow(),
    claimedUntil: tstz('claimed_until'),
    failedAt: tstz('failed_at'),
    error: text('error'),
  },
  (t) => [
    index('mail_outbox_due_idx').on(t.nextAttemptAt).where(sql`${t.sentAt} is null and ${t.failedAt} is null`),
    index('mail_outbox_about_idx').on(t.about, t.id).where(sql`${t.about} is not null`),
  ],
);

/**
 * 空席通知: a diner watching a store or a search for a free table within a window. A guest's
 * watch mails nothing until its address is confirmed through the link mailed to it.
 */
export const watches = pgTable(
  'watches',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    /** Where notifications go: the account's address, or the guest's. */
    email: text('email').notNull(),
    /** Guests: the hash of the token their device keeps to list and cancel the watch. */
    deviceTokenHash: text('device_token_hash'),
    /** Guests: the hash of the confirmation link's token, until it is used. */
    confirmTokenHash: text('confirm_token_hash'),
    confirmedAt: tstz('confirmed_at'),
    storeId: integer('store_id').references(() => stores.id, { onDelete: 'cascade' }),
    areaId: integer('area_id').references(() => areas.id, { onDelete: 'cascade' }),
    genre: text('genre').$type<Genre>(),
    keyword: text('keyword'),
    partySize: integer('party_size').notNull(),
    startsFrom: tstz('starts_from').notNull(),
    endsAt: tstz('ends_at').notNull(),
    locale: text('locale').notNull().default('ja'),
    createdAt: tstz('created_at').notNull().defaultNow(),
    cancelledAt: tstz('cancelled_at'),
  },
  (t) => [
    index('watches_user_idx').on(t.userId),
    index('watches_email_idx').on(sql`lower(${t.email})`),
    index('watches_active_idx').on(t.endsAt).where(sql`${t.cancelledAt} is null`),
    check('watches_target_check', sql`${t.storeId} is not null or ${t.areaId} is not null`),
    check('watches_window_check', sql`${t.endsAt} > ${t.startsFrom}`),
  ],
);

/**
 * Web Push subscriptions (RFC 8030): one row per browser that said yes, owned by an account or by
 * a guest's device (the hash of the token its watches carry). A push service's 404/410 deletes it.
 */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: serial('id').primaryKey(),
    endpoint: text('endpoint').notNull().unique(),
    /** The browser's P-256 public key and auth secret (base64url), for RFC 8291 encryption. */
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    deviceTokenHash: text('device_token_hash'),
    /**
     * A guest's 順番待ち entry the device follows (subscribed from the entry's page, with its secret
     * link): it gets the entry's call, and goes when the entry ends (src/server/queue/service.ts moveEntry).
     */
    queueEntryId: integer('queue_entry_id').references(() => queueEntries.id, { onDelete: 'cascade' }),
    /** The language the notifications are written in. */
    locale: text('locale').notNull().default('ja'),
    /** What the device says it is (browser and system), to tell devices apart on the account page. */
    label: text('label').notNull().default(''),
    createdAt: tstz('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('push_subscriptions_user_idx').on(t.userId),
    index('push_subscriptions_device_idx').on(t.deviceTokenHash),
    index('push_subscriptions_queue_entry_idx').on(t.queueEntryId),
    check('push_subscriptions_owner_check', sql`${t.userId} is not null or ${t.deviceTokenHash} is not null or ${t.queueEntryId} is not null`),
  ],
);

/** Pushes waiting to be sent: written with the work they report, sent apart (src/server/push/worker.ts). */
export const pushOutbox = pgTable(
  'push_outbox',
  {
    id: serial('id').primaryKey(),
    subscriptionId: integer('subscription_id')
      .notNull()
      .references(() => pushSubscriptions.id, { onDelete: 'cascade' }),
    /** The notification as JSON (title, body, url, tag): a store's name and a time, nothing personal. */
    payload: text('payload').notNull(),
    kind: text('kind').notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: tstz('next_attempt_at').notNull().defaultNow(),
    claimedUntil: tstz('claimed_until'),
    createdAt: tstz('created_at').notNull().defaultNow(),
  },
  (t) => [index('push_outbox_due_idx').on(t.nextAttemptAt)],
);

/**
 * A freed start held for one watcher (a claimable 空席通知, src/server/watches/holds.ts): while it is
 * `offered` and its deadline is ahead, the availability index and the booking service count its
 * table as taken for the stay, so nobody else books it; claiming it makes the watcher's booking in
 * the same transaction. Past the deadline it is free again by itself, whichever instance (if any)
 * marks it expired; then the next watcher is offered it. One row per watch and start: nobody is
 * offered the same start twice.
 */
export const watchHolds = pgTable(
  'watch_holds',
  {
    id: serial('id').primaryKey(),
    watchId: integer('watch_id')
      .notNull()
      .references(() => watches.id, { onDelete: 'cascade' }),
    storeId: integer('store_id')
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
    tableId: integer('table_id')
      .notNull()
      .references(() => storeTables.id, { onDelete: 'cascade' }),
    partySize: integer('party_size').notNull(),
    startsAt: tstz('starts_at').notNull(),
    endsAt: tstz('ends_at').notNull(),
    expiresAt: tstz('expires_at').notNull(),
    state: text('state').$type<WatchHoldState>().notNull().default('offered'),
    /** The hash of the mailed link's token, which opens the hold on any device. */
    tokenHash: text('token_hash').notNull(),
    bookingId: integer('booking_id').references(() => bookings.id, { onDelete: 'set null' }),
    createdAt: tstz('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('watch_holds_watch_start_idx').on(t.watchId, t.storeId, t.startsAt),
    index('watch_holds_open_idx').on(t.storeId, t.expiresAt).where(sql`${t.state} = 'offered'`),
  ],
);

export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  count: integer('count').notNull().default(0),
  resetAt: tstz('reset_at').notNull(),
});

/**
 * Answers to requests sent with an `Idempotency-Key` (src/server/idempotency.ts), kept 24 hours so
 * a retry gets the first answer again on any instance. `id` hashes the key with who sent it; the
 * answer is sealed with a key derived from the Idempotency-Key, which only the client holds.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    id: text('id').primaryKey(),
    fingerprint: text('fingerprint').notNull(),
    /** Null while the first request is still being answered. */
    status: integer('status'),
    answer: text('answer'),
    createdAt: tstz('created_at').notNull(),
  },
  (t) => [index('idempotency_keys_created_idx').on(t.createdAt)],
);

export const availabilityEvents = pgTable(
  'availability_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    storeId: integer('store_id')
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
    createdAt: tstz('created_at').notNull().defaultNow(),
  },
  (t) => [index('availability_events_created_idx').on(t.createdAt)],
);

export type NewStore = typeof stores.$inferInsert;
export type NewStoreHours = typeof storeHours.$inferInsert;
export type NewStoreTable = typeof storeTables.$inferInsert;
export type NewBooking = typeof bookings.$inferInsert;
