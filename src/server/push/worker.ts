/**
 * Sends the pushes waiting in `push_outbox`: each encrypted for its browser (RFC 8291, aes128gcm)
 * and signed with the VAPID key (RFC 8292) by `web-push`, posted to the browser's push service
 * (RFC 8030). Rows are claimed with a lease (`for update skip locked`), so every instance may run
 * this and each push goes once. A 404 or 410 means the browser dropped the subscription: it is
 * deleted. Other failures are tried again a few times, then dropped (a push is worth little late).
 */
import { and, asc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import webpush from 'web-push';
import type { Db } from '../db/types';
import { pushOutbox, pushSubscriptions } from '../db/schema';
import { config } from '../config';
import { getDbHandle } from '../db/startup';
import { createOutboxWorker } from '../outboxWorker';
import { acceptableEndpoint } from './endpoint';
import { onPushQueued } from './service';
import { vapidKeys } from './vapid';
import { log } from '../log';

export const PUSH_DELIVERY = {
  batch: 20,
  pollMs: 5_000,
  /** A claimed push not finished in this long (the instance stopped) is taken by another. */
  leaseMs: 60_000,
  timeoutMs: 15_000,
  attempts: 4,
  /** How long push services keep a push for a browser that is offline: an alert is stale after this. */
  ttlSeconds: 30 * 60,
};

export interface PushRun {
  sent: number;
  gone: number;
  failed: number;
}

/** Claims due pushes and sends them; what became of them. */
export async function deliverDuePushes(db: Db, now = new Date()): Promise<PushRun> {
  const run: PushRun = { sent: 0, gone: 0, failed: 0 };
  const claimed = await db.transaction(async (tx) => {
    const due = tx
      .select({ id: pushOutbox.id })
      .from(pushOutbox)
      .where(and(lte(pushOutbox.nextAttemptAt, now), or(isNull(pushOutbox.claimedUntil), lte(pushOutbox.claimedUntil, now))))
      .orderBy(asc(pushOutbox.nextAttemptAt), asc(pushOutbox.id))
      .limit(PUSH_DELIVERY.batch)
      .for('update', { skipLocked: true });
    return tx
      .update(pushOutbox)
      .set({ claimedUntil: new Date(now.getTime() + PUSH_DELIVERY.leaseMs), attempts: sql`${pushOutbox.attempts} + 1` })
      .where(inArray(pushOutbox.id, due))
      .returning({
        id: pushOutbox.id,
        subscriptionId: pushOutbox.subscriptionId,
        payload: pushOutbox.payload,
        attempts: pushOutbox.attempts,
        kind: pushOutbox.kind,
      });
  });
  if (!claimed.length) return run;
  const subs = await db
    .select()
    .from(pushSubscriptions)
    .where(inArray(pushSubscriptions.id, [...new Set(claimed.map((c) => c.subscriptionId))]));
  const { publicKey, privateKey } = vapidKeys();
  const { VAPID_SUBJECT, PUSH_ALLOW_LOCAL_ENDPOINTS } = config();
  for (const push of claimed) {
    const sub = subs.find((s) => s.id === push.subscriptionId);
    if (!sub) continue; // removed meanwhile; its row went with it
    // Checked again at sending: the rule may have become stricter since the browser subscribed.
    if (!acceptableEndpoint(sub.endpoint, PUSH_ALLOW_LOCAL_ENDPOINTS)) {
      await db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, sub.id));
      run.gone++;
      continue;
    }
    let status = 0;
    let error = '';
    try {
      const request = webpush.generateRequestDetails({ endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } }, push.payload, {
        vapidDetails: { subject: VAPID_SUBJECT, publicKey, privateKey },
        TTL: PUSH_DELIVERY.ttlSeconds,
        urgency: 'high',
        contentEncoding: 'aes128gcm',
      });
      const res = await fetch(request.endpoint, {
        method: request.method,
        headers: request.headers as Record<string, string>,
        body: request.body ? new Uint8Array(request.body) : null,
        redirect: 'error',
        signal: AbortSignal.timeout(PUSH_DELIVERY.timeoutMs),
      });
      status = res.status;
      await res.body?.cancel();
    } catch (e) {
      error = String((e as Error)?.message ?? e);
    }
    const host = URL.canParse(sub.endpoint) ? new URL(sub.endpoint).host : '';
    if (status >= 200 && status < 300) {
      await db.delete(pushOutbox).where(eq(pushOutbox.id, push.id));
      run.sent++;
      log('info', 'push_sent', { id: push.id, kind: push.kind, host });
    } else if (status === 404 || status === 410) {
      // The browser unsubscribed or the subscription expired: it will never take a push again.
      await db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, sub.id));
      run.gone++;
      log('info', 'push_subscription_gone', { id: push.id, subscription: sub.id, status, host });
    } else {
      run.failed++;
      const last = push.attempts >= PUSH_DELIVERY.attempts || (status >= 400 && status < 500 && status !== 429);
      if (last) await db.delete(pushOutbox).where(eq(pushOutbox.id, push.id));
      else
        await db
          .update(pushOutbox)
          .set({ claimedUntil: null, nextAttemptAt: new Date(Date.now() + 2 ** push.attempts * 15_000) })
          .where(eq(pushOutbox.id, push.id));
      log('warn', last ? 'push_dropped' : 'push_retry', { id: push.id, kind: push.kind, host, status, error });
    }
  }
  return run;
}

/**
 * Starts this process's push worker on the app's database (src/server/background.ts): kicked when
 * pushes are queued here, and polling for the rest. Answers how to stop it.
 */
export async function startPushDelivery(): Promise<() => Promise<void>> {
  vapidKeys();
  const { db } = await getDbHandle();
  const worker = createOutboxWorker({
    db,
    pollMs: PUSH_DELIVERY.pollMs,
    onQueued: onPushQueued,
    failure: 'push_delivery_failed',
    async runBatch() {
      const run = await deliverDuePushes(db);
      return run.sent + run.gone + run.failed >= PUSH_DELIVERY.batch;
    },
  });
  return () => worker.stop();
}
