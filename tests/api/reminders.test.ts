/**
 * The day-of reminder on both engines, with a controlled clock: due a set time before each
 * confirmed booking (none for one made or moved within that time, nor for a cancelled one), in
 * the language the diner booked in, with the booking, the map and a link that opens it; written
 * once however many instances look at the same moment.
 */
import { beforeAll, expect, it } from 'vitest';
import { and, eq, like } from 'drizzle-orm';
import { forEachEngine } from '../helpers/db';
import { ldOf, missingReservationProperties } from '../helpers/jsonld';
import { toTokyoIso } from '../../src/lib/datetime';
import { prepare, type Fixture } from './booking-fixtures';
import { book, cancel, change, type BookingContext } from '../../src/server/bookings/http';
import { guestTokenValid } from '../../src/server/bookings/view';
import { sendDueReminders } from '../../src/server/bookings/reminders';
import { openDb } from '../../src/server/db/client';
import { mailOutbox } from '../../src/server/db/schema';
import { translatorFor } from '../../src/i18n';
import { translate } from '../../src/server/http/api';
import type { Db } from '../../src/server/db/types';
import type { Locale } from '../../src/i18n/locales';

const ORIGIN = 'https://sugu.test';
/** Friday 10:00 in Tokyo: the bookings below are for this evening. */
const MORNING = new Date('2026-11-20T10:00:00+09:00');
const jst = (hhmm: string) => new Date(`2026-11-20T${hhmm}:00+09:00`);
const ctx = (now: Date, locale: Locale = 'ja'): BookingContext => ({ t: translate(translatorFor(locale)), locale, origin: ORIGIN, now });
let guests = 0;
/** Each booking another diner (one diner cannot hold two overlapping bookings at a store). */
const guest = (email: string) => ({ name: '山田 花子', name_kana: 'ヤマダ ハナコ', phone: `090-1234-${5000 + ++guests}`, email });
const asGuest = { kind: 'guest', token: '' } as const;

forEachEngine('day-of reminders', (get, engine) => {
  let db: Db;
  let fx: Fixture;
  const reminders = async (to?: string) =>
    db
      .select()
      .from(mailOutbox)
      .where(to ? and(eq(mailOutbox.kind, 'booking_reminder'), eq(mailOutbox.toAddress, to)) : eq(mailOutbox.kind, 'booking_reminder'));
  const ids: Record<string, number> = {};
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    db = get().db;
    fx = await prepare(db);
    const at = (hhmm: string) => jst(hhmm).toISOString();
    const user = { kind: 'user', userId: fx.users[0]!.id, email: fx.users[0]!.email, name: '予約 太郎1' } as const;
    // Booked in the morning for 19:00 in Japanese: due at 16:00.
    const ja = await book(db, { store_id: fx.storeId, start: at('19:00'), party_size: 2, ...guest('ja@example.jp') }, asGuest, ctx(MORNING));
    ids.ja = ja.booking.id;
    tokens.ja = ja.editToken!;
    // A signed-in diner booking in English for 20:00: due at 17:00.
    ids.en = (await book(db, { store_id: fx.storeId, start: at('20:00'), party_size: 3 }, user, ctx(MORNING, 'en'))).booking.id;
    // Booked at 11:00 for 13:30: within three hours, no reminder.
    ids.late = (
      await book(db, { store_id: fx.storeId, start: at('13:30'), party_size: 2, ...guest('late@example.jp') }, asGuest, ctx(jst('11:00')))
    ).booking.id;
    // Cancelled: none.
    const gone = await book(db, { store_id: fx.storeId, start: at('19:30'), party_size: 2, ...guest('gone@example.jp') }, asGuest, ctx(MORNING));
    await cancel(db, gone.booking.id, { kind: 'guest', token: gone.editToken! }, ctx(jst('10:30')));
    // Moved at 11:00 from 12:00 to 21:00: due at 18:00, not at 09:00.
    const moved = await book(db, { store_id: fx.tinyStoreId, start: at('12:00'), party_size: 2, ...guest('moved@example.jp') }, asGuest, ctx(jst('08:00')));
    ids.moved = moved.booking.id;
    await change(db, moved.booking.id, { start: at('21:00') }, { kind: 'guest', token: moved.editToken! }, ctx(jst('11:00')));
  });

  it('sends nothing before its time, then the Japanese guest’s reminder with the map and a link that opens the booking', async () => {
    expect(await sendDueReminders(db, jst('15:59'), ORIGIN)).toBe(0);
    expect(await sendDueReminders(db, jst('16:00'), ORIGIN)).toBe(1);
    const [mail] = await reminders('ja@example.jp');
    expect(mail).toMatchObject({ locale: 'ja', subject: '【すぐ予約】まもなくご予約の時間です（テスト酒場 渋谷 19:00〜）' });
    expect(mail!.bodyText).toContain('11月20日(金) 19:00〜21:00');
    expect(mail!.bodyText).toContain('住所: 東京都渋谷区道玄坂1-2-3, テストビル');
    expect(mail!.bodyText).toContain('https://www.openstreetmap.org/?mlat=35.658&mlon=139.7016');
    expect(mail!.bodyHtml).toContain('<a href="https://www.openstreetmap.org/?mlat=35.658&amp;mlon=139.7016');
    const link = mail!.bodyText.match(new RegExp(`${ORIGIN}/store/${fx.storeId}/booking-without/edit/${ids.ja}\\?token=([\\w-]+)`));
    expect(link).not.toBeNull();
    // The HTML part carries the reservation, to be changed through the reminder's own link.
    const reservation = ldOf(mail!.bodyHtml, 'FoodEstablishmentReservation');
    expect(missingReservationProperties(reservation)).toEqual([]);
    expect(reservation).toMatchObject({ underName: { name: '山田 花子' }, partySize: 2, startTime: toTokyoIso(jst('19:00')), modifyReservationUrl: link![0] });
    const token = decodeURIComponent(link![1]!);
    // The reminder's link opens the booking, and so does the confirmation's still.
    expect((await guestTokenValid(db, ids.ja!, token, jst('16:00')))?.id).toBe(ids.ja);
    expect((await guestTokenValid(db, ids.ja!, tokens.ja!, jst('16:00')))?.id).toBe(ids.ja);
    expect(await sendDueReminders(db, jst('16:30'), ORIGIN)).toBe(0);
  });

  it('writes a signed-in diner’s reminder in the language they booked in, linking their booking page', async () => {
    expect(await sendDueReminders(db, jst('17:00'), ORIGIN)).toBe(1);
    const [mail] = await reminders(fx.users[0]!.email);
    expect(mail).toMatchObject({ locale: 'en', subject: '[Sugu] Coming up: テスト酒場 渋谷 at 20:00' });
    expect(mail!.bodyText).toContain('Party size: 3 people');
    expect(mail!.bodyText).toContain(`${ORIGIN}/store/${fx.storeId}/booking/edit/${ids.en}`);
  });

  it(`is written once when ${engine === 'postgres' ? 'two instances (two connection pools)' : 'two workers'} look at the same moment`, async () => {
    const other = engine === 'postgres' ? await openDb({ databaseUrl: get().location, max: 3 }) : undefined;
    try {
      const counts = await Promise.all([sendDueReminders(db, jst('18:00'), ORIGIN), sendDueReminders(other?.db ?? db, jst('18:00'), ORIGIN)]);
      expect(counts.reduce((a, b) => a + b)).toBe(1);
    } finally {
      await other?.close();
    }
    const [mail, ...more] = await reminders('moved@example.jp');
    expect(more).toEqual([]);
    expect(mail!.bodyText).toContain('21:00〜23:00');
  });

  it('never reminds of a booking made within the lead time, nor of a cancelled one', async () => {
    expect(await sendDueReminders(db, jst('23:00'), ORIGIN)).toBe(0);
    expect(await reminders('late@example.jp')).toEqual([]);
    expect(await reminders('gone@example.jp')).toEqual([]);
    expect((await db.select().from(mailOutbox).where(like(mailOutbox.kind, 'booking_reminder'))).map((m) => m.toAddress).sort()).toEqual(
      ['ja@example.jp', fx.users[0]!.email, 'moved@example.jp'].sort(),
    );
  });
});
