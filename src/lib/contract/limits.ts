/**
 * Every limit a form, an endpoint or an island checks, in one place. Plain numbers: the server's
 * schemas, the pages' `maxlength` and the islands all read them from here.
 */

/**
 * The largest request body the server reads, form or JSON, chunked or with Content-Length: the
 * HTTP edge (src/server/http/edge.ts) answers 413 past it before any page or endpoint runs. No
 * form or endpoint takes a file; the longest form (a store's details) is a few kilobytes.
 */
export const BODY_MAX_BYTES = 64 * 1024;

/** A party is 1 to 20 people (the largest table of any store sets a lower limit per store). */
export const PARTY_MIN = 1;
export const PARTY_MAX = 20;
/**
 * A stay (turn time) is 15 minutes to 6 hours, for a store's default and for each party size; the
 * database-backed listing reads bookings this far ahead of the coming hour.
 */
export const STAY_MINUTES_MIN = 15;
export const STAY_MINUTES_MAX = 360;
/** The party a listing and a booking form start with when none is given. */
export const DEFAULT_PARTY = 2;

/** A table's label as staff name it on the floor (T1, カウンター3, 個室 桜). */
export const TABLE_LABEL_MAX = 20;
/** A booking's note (allergies, an anniversary). */
export const NOTE_MAX = 200;
/** A guest's name and its kana reading. */
export const GUEST_NAME_MAX = 50;
/** An account holder's name and its kana reading. */
export const ACCOUNT_NAME_MAX = 100;
/** A phone number as typed, with dashes, spaces, brackets and +81. */
export const PHONE_INPUT_MAX = 30;
/** An e-mail address (RFC 5321). */
export const EMAIL_MAX = 254;
/** Passwords: length only, no composition rules (NIST); the upper bound keeps hashing cheap. */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
/** A guest edit token, a session token or a reset token as sent back; longer is never one of ours. */
export const TOKEN_MAX = 200;
/** How long a link verifying an account's e-mail address works (the mail says so). */
export const EMAIL_VERIFY_TTL_HOURS = 24;

/** Long enough for any store name, station or area; longer input is refused, not truncated. */
export const KEYWORD_MAX = 100;
/** Stores on one page of a listing, by default and at most. */
export const PAGE_SIZE = 20;
export const PAGE_SIZE_MAX = 50;
/**
 * Stores shown in each of a search's "later today" and "another day" groups (after the bookable-now
 * list), and with the group's "see more" link: the groups come from the in-memory index and stay small.
 */
export const BEYOND_GROUP_SIZE = 20;
export const BEYOND_GROUP_MORE = 100;
/** A diner's booking history shows at most this many bookings. */
export const BOOKING_LIST_MAX = 200;

/** Stores one live-availability stream watches; a page watching more opens several. */
export const STREAM_STORES_MAX = 50;

/** A position on Earth, in degrees. */
export const LATITUDE_MAX = 90;
export const LONGITUDE_MAX = 180;

/** The last page a listing answers. */
export const PAGE_MAX = 10_000;

/** Active watches (空席通知) one diner or one e-mail address may hold. */
export const WATCHES_ACTIVE_MAX = 10;
/** A watch's window when none is given: the next hour. */
export const WATCH_DEFAULT_MINUTES = 60;
/** The windows a watch form offers, in minutes (the API takes any `until` within the bookable days). */
export const WATCH_WINDOW_CHOICES = [30, 60, 120, 180] as const;
/** A listing with at most this many bookable stores offers to watch its search. */
export const WATCH_SHORT_LISTING = 3;

/** A listing's budget filter (yen per person): any whole number up to this; the form offers BUDGET_STEPS. */
export const BUDGET_MAX = 100_000;
export const BUDGET_STEPS = [1000, 2000, 3000, 4000, 5000, 6000, 8000, 10_000, 15_000, 20_000, 30_000] as const;

/** A mark at the door (arrived, no-show, cancelled by the store) can be undone this long after it is made. */
export const MARK_UNDO_MINUTES = 10;

/** The party size the door tablet's walk-in form starts at: most walk-ins come as two. */
export const WALK_IN_DEFAULT_PARTY = 2;

/**
 * A store's cancellation-fee policy, as the fee rule reads it: free until this many hours before
 * the start (the database allows 0 to 168, one week), then a fee per person of at most
 * CANCEL_FEE_YEN_MAX (well above any course price; a larger number is a typing slip).
 */
export const CANCEL_FREE_HOURS_MAX = 168;
export const CANCEL_FEE_YEN_MAX = 100_000;
/** The store's own wording of its cancellation policy, and its description for diners. */
export const STORE_TEXT_MAX = 1000;
/** A store's name, kana, address and station as diners see them. */
export const STORE_LINE_MAX = 100;
/** Minutes on foot from the station a store names. */
export const WALK_MINUTES_MAX = 120;

/**
 * An `Idempotency-Key` is remembered this long: a retry within it gets the first answer again; the
 * same key after it is a new request (and the stored answer is swept away).
 */
export const IDEMPOTENCY_KEY_HOURS = 24;
/** An `Idempotency-Key`'s length: long enough to be unguessable (it also seals the answer kept). */
export const IDEMPOTENCY_KEY_MIN = 16;
export const IDEMPOTENCY_KEY_MAX = 255;
/** An incoming `X-Request-Id` longer than this is not taken: the request gets an id of its own. */
export const REQUEST_ID_MAX = 64;
/** A campaign banner's title and its short text: a line and a sentence, so /home stays light. */
export const BANNER_TITLE_MAX = 30;
export const BANNER_TEXT_MAX = 80;
/** Banners a store may have that have not ended yet (current and upcoming). */
export const BANNERS_ACTIVE_MAX = 3;
/** A banner runs at most this many business days, and starts at most this many days ahead. */
export const BANNER_DAYS_MAX = 31;
export const BANNER_AHEAD_DAYS_MAX = 90;
/** Banners the diner home shows at once, of as many stores; more are rotated by the day. */
export const HOME_BANNERS_MAX = 3;
/** Past banners the store's banner screen lists, latest first. */
export const BANNERS_PAST_LISTED = 20;
/**
 * A diner may tell the store they are on their way or running late from this many minutes before
 * the start until the store's grace period ends (src/lib/contract/late.ts).
 */
export const LATE_NOTICE_OPENS_MINUTES = 120;
/**
 * The store's grace period: this long after the start, a party that has not arrived may have its
 * table released. The default of a store's own setting, and the most it may be.
 */
export const GRACE_MINUTES_DEFAULT = 15;
export const GRACE_MINUTES_MAX = 60;

/** Starts are offered every 15 minutes. */
export const SLOT_STEP_MIN = 15;
/** "Bookable now" looks this far ahead. */
export const NOW_WINDOW_MIN = 60;
/** Bookings are taken for today and the next 13 days. */
export const BOOKING_DAYS_AHEAD = 13;
/** A password reset link works this long, once. */
export const RESET_LINK_MINUTES = 60;

/**
 * The numbers the copy states, by the name messages use for them: a message writes
 * `{{bookingDaysAhead}}`, never 13, so the text cannot drift from the rule. Filled in when the
 * dictionaries load (src/i18n/index.ts), for the server and the islands alike.
 */
export const COPY_NUMBERS = { bookingDaysAhead: BOOKING_DAYS_AHEAD, slotMinutes: SLOT_STEP_MIN, resetMinutes: RESET_LINK_MINUTES } as const;
