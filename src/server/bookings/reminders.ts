/**
 * The day-of reminder: REMINDER_LEAD_MINUTES (default 3 hours) before each confirmed booking, a
 * mail in the diner's language with the booking, the map and the link to change or cancel it.
 *
 * A booking made or moved within that time gets none (the confirmation has just said it all):
 * `remind_at` is set from the row's own start when the booking is made or changed, and stays null
 * otherwise. Sending claims due rows (`for update skip locked`, `remind_at` cleared) and queues
 * their mails in the same transaction, so however many instances look, each reminder is written
 * once, and never lost between the claim and the outbox.
 */
import { and, asc, eq, gt, inArray, isNotNull, lte, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../db/types';
import { bookings, stores, users } from '../db/schema';
import { config, publicOrigin } from '../config';
import { translate } from '../http/api';
import { hashToken, newToken } from '../sessions';
import { mailQueued, queueMail } from '../mail/outbox';
import { isLocale } from '../../i18n/locales';
import { translatorFor } from '../../i18n';
import { bookingPaths } from '../../lib/contract/paths';
import { reminderMail } from './mail';
import { clock } from '../clock';
import { bookingForMail } from './view';
import { reservationLd } from '../structuredData';
import { pushQueued, queuePushes } from '../push/service';
import { watchTranslator } from '../watches/translate';
import { formatWhen } from '../../lib/datetime';

/** Reminders claimed per transaction. */
const BATCH = 50;

/** When a booking starting at `start` is reminded: `lead` minutes before, or never when that moment has passed at `now`. */
export function reminderDue(start: Date, now: Date, lead = config().REMINDER_LEAD_MINUTES): Date | null {
  const due = new Date(start.getTime() - lead * 60_000);
  return due > now ? due : null;
}

/**
 * After a booking is changed (a new booking sets its reminder as it is inserted: src/server/bookings/create.ts):
 * its reminder is due by its current start (`reminderDue`), and later mails are written in `locale`.
 */
export async function scheduleReminder(db: Db, booking: { id: number; start: Date }, locale: string, now: Date, lead?: number): Promise<void> {
  await db
    .update(bookings)
    .set({ locale, remindAt: reminderDue(booking.start, now, lead) })
    .where(eq(bookings.id, booking.id));
}

/** Claims the reminders due at `now` and queues their mails; returns how many. */
export async function sendDueReminders(db: Db, now = clock.now(), origin = publicOrigin()): Promise<number> {
  let pushes = 0;
  const queued = await db.transaction(async (tx) => {
    // Bookings cancelled or begun meanwhile (e.g. while no instance ran) drop their reminder.
    await tx
      .update(bookings)
      .set({ remindAt: null })
      .where(and(isNotNull(bookings.remindAt), lte(bookings.remindAt, now), or(ne(bookings.status, 'confirmed'), lte(bookings.startsAt, now))));
    const due = tx
      .select({ id: bookings.id })
      .from(bookings)
      .where(and(lte(bookings.remindAt, now), eq(bookings.status, 'confirmed'), gt(bookings.startsAt, now)))
      .orderBy(asc(bookings.remindAt))
      .limit(BATCH)
      .for('update', { skipLocked: true });
    const claimed = await tx.update(bookings).set({ remindAt: null }).where(inArray(bookings.id, due)).returning({ id: bookings.id });
    if (!claimed.length) return 0;
    const rows = await tx
      .select({
        id: bookings.id,
        code: bookings.code,
        storeId: bookings.storeId,
        storeName: stores.name,
        storeAddress: stores.address,
        storePhone: stores.phone,
        lat: stores.lat,
        lng: stores.lng,
        start: bookings.startsAt,
        end: bookings.endsAt,
        partySize: bookings.partySize,
        locale: bookings.locale,
        userId: bookings.userId,
        userEmail: users.email,
        guestEmail: bookings.guestEmail,
      })
      .from(bookings)
      .innerJoin(stores, eq(stores.id, bookings.storeId))
      .leftJoin(users, eq(users.id, bookings.userId))
      .where(
        inArray(
          bookings.id,
          claimed.map((c) => c.id),
        ),
      );
    let count = 0;
    for (const { locale: saved, userId, userEmail, guestEmail, ...facts } of rows) {
      const to = userEmail ?? guestEmail;
      if (!to) continue; // an account that has since been closed
      let link = origin + bookingPaths.edit(facts.storeId, facts.id);
      if (!userEmail) {
        // A guest's own link for this mail: the confirmation's token exists only as a hash.
        const token = newToken();
        await tx
          .update(bookings)
          .set({ reminderTokenHash: hashToken(token) })
          .where(eq(bookings.id, facts.id));
        link = origin + bookingPaths.guestEdit(facts.storeId, facts.id, token);
      }
      const locale = isLocale(saved) ? saved : 'ja';
      const ctx = { t: translate(translatorFor(locale)), locale, origin };
      // The reservation's markup, as in the booking's other mails (a mail app shows the card for the day).
      const view = await bookingForMail(tx, facts.id);
      const markup = view ? { markup: reservationLd(view, { name: view.dinerName || to }, { origin, modify: link }) } : {};
      await queueMail(tx, { to, ...reminderMail(facts, ctx, link), ...markup, locale, kind: 'booking_reminder' });
      // An account's phones that said yes: the store and the time, the booking list on a tap.
      if (userId !== null && userEmail)
        pushes += await queuePushes(tx, { userIds: [userId] }, 'booking_reminder', (pushLocale) => {
          const t = watchTranslator(pushLocale);
          return {
            title: t('push.reminder.title'),
            body: t('push.reminder.body', { store: facts.storeName, time: formatWhen(facts.start, pushLocale, t) }),
            url: '/booking-list',
            tag: `reminder-${facts.id}`,
          };
        });
      count++;
    }
    return count;
  });
  if (queued) mailQueued(db);
  if (pushes) pushQueued(db);
  return queued;
}
