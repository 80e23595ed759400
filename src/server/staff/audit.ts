/**
 * The staff audit trail: who did what, and when, at which store, with what the change replaced
 * (`before`) and what it left (`after`). Written in the same transaction as the change it records,
 * so a change is never without its line nor a line without its change.
 */
import type { Q } from '../db/types';
import { staffAudit } from '../db/schema';
import type { StaffScope } from './access';

export type AuditAction =
  | 'sign_in'
  | 'hours_set'
  | 'closure_set'
  | 'closure_remove'
  | 'table_create'
  | 'table_set'
  | 'table_delete'
  | 'turn_times_set'
  | 'block_create'
  | 'block_release'
  | 'booking_arrived'
  | 'booking_no_show'
  | 'booking_cancelled'
  | 'booking_mark_undone'
  | 'booking_create'
  | 'booking_change'
  | 'booking_running_late'
  | 'queue_join'
  | 'queue_call'
  | 'queue_seat'
  | 'queue_no_show'
  | 'queue_cancel'
  | 'queue_expire'
  | 'walk_in_seat'
  | 'walk_in_free'
  | 'details_set'
  | 'policy_set'
  | 'arrivals_set'
  | 'fee_state_set'
  | 'banner_create'
  | 'banner_update'
  | 'banner_delete'
  | 'store_create'
  | 'invitation_create'
  | 'invitation_accept'
  | 'invitation_revoke';

type State = Record<string, unknown> | null;

export async function audit(
  q: Q,
  /** Staff, or a diner whose word the store is told (a guest has no account: `userId` null). */
  who: { userId: StaffScope['userId'] | null; email: string },
  entry: { action: AuditAction; storeId?: number | null; targetId?: number | null; detail?: Record<string, unknown>; before?: State; after?: State },
): Promise<void> {
  await q.insert(staffAudit).values({
    userId: who.userId,
    actorEmail: who.email,
    storeId: entry.storeId ?? null,
    action: entry.action,
    targetId: entry.targetId ?? null,
    detail: entry.detail ?? {},
    before: entry.before ?? null,
    after: entry.after ?? null,
  });
}
