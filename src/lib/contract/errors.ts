/**
 * The stable `code` of every API error (DESIGN §4: `{ error: { code, message, fields? } }`).
 * Clients branch on these; the message beside them is translated and may change.
 */
export const ERROR_CODES = [
  'bad_request',
  'invalid_json',
  'invalid_encoding',
  'validation_failed',
  'invalid_link',
  'wrong_password',
  'unauthorized',
  'forbidden',
  'cross_origin',
  'not_found',
  'method_not_allowed',
  'email_taken',
  'slot_taken',
  'table_held',
  'duplicate_booking',
  'idempotency_key_reused',
  'idempotency_key_in_flight',
  'not_changeable',
  'change_needs_store',
  'body_too_large',
  'headers_too_large',
  'rate_limited',
  'too_many_streams',
  'request_timeout',
  'internal',
  'shutting_down',
  'database_away',
  'streams_full',
  'too_many_watches',
  'too_many_banners',
  'no_free_table',
  'undo_expired',
  'table_in_use',
  /** A fee's state was set on a booking that owes no fee. */
  'no_fee',
  /** A 順番待ち entry asked to move to a state its state cannot become (src/lib/contract/queue.ts). */
  'queue_state',
  /** The diner already waits in as many queues as they may. */
  'too_many_queues',
  /** The store's queue is not open now (a start is free within the hour). */
  'queue_closed',
  /** A watch's hold is no longer open: claimed already, or past its deadline. */
  'hold_state',
  /**
   * Leaving an account without a password: the diner must sign in to a linked provider afresh;
   * `reauth_url` is that sign-in, started for the browser that asked.
   */
  'reauth_required',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];
