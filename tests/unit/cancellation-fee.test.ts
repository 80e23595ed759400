import { describe, expect, it } from 'vitest';
import { feeJson, formatDeadline, withFees } from '../../src/server/bookings/fee';
import { cancellationFee, policyBesideFee } from '../../src/lib/contract/fee';
import { bookingFee } from '../../src/server/bookings/json';
import type { BookingView } from '../../src/server/bookings/view';
import { translatorFor } from '../../src/i18n';

const ja = { t: translatorFor('ja'), locale: 'ja' };
const en = { t: translatorFor('en'), locale: 'en' };
const at = (iso: string) => new Date(iso);
const twoHours = { freeHours: 2, feeYen: 2000 };

describe('the cancellation fee as it applies now', () => {
  it('is free until the window opens, then due; the deadline itself is already charged', () => {
    const start = at('2026-11-20T18:00:00+09:00');
    expect(cancellationFee(twoHours, start, 4, at('2026-11-20T15:59:59.999+09:00'))).toEqual({
      applies: 'free',
      freeUntil: at('2026-11-20T16:00:00+09:00'),
      perPerson: 2000,
      total: 8000,
    });
    expect(cancellationFee(twoHours, start, 4, at('2026-11-20T16:00:00+09:00'))).toEqual({ applies: 'due', perPerson: 2000, total: 8000 });
    // The case: an 18:00 booking cancelled at 17:26.
    expect(cancellationFee(twoHours, start, 4, at('2026-11-20T17:26:00+09:00')).applies).toBe('due');
  });

  it('charges a booking "within the hour" from the moment it is made', () => {
    const now = at('2026-11-20T21:40:00+09:00');
    const fee = feeJson(cancellationFee({ freeHours: 1, feeYen: 1000 }, at('2026-11-20T22:15:00+09:00'), 3, now), 'book', ja.locale, ja.t);
    expect(fee).toMatchObject({ applies: 'due', free_until: null, per_person: 1000, total: 3000 });
    expect(fee.message).toBe('このお時間はすでにキャンセル料の対象です。予約後にキャンセルすると、お一人様¥1,000（合計¥3,000）がかかります。');
  });

  it('says nothing is charged when the store charges nothing, whenever asked', () => {
    const none = { freeHours: 0, feeYen: 0 };
    expect(cancellationFee(none, at('2026-11-20T18:00:00+09:00'), 2, at('2026-11-20T17:59:00+09:00'))).toEqual({ applies: 'none' });
    expect(feeJson({ applies: 'none' }, 'cancel', 'ja', ja.t)).toEqual({
      applies: 'none',
      free_until: null,
      per_person: 0,
      total: 0,
      message: 'キャンセル料はかかりません。',
    });
  });

  it('writes the deadline under its business day, after midnight as 翌', () => {
    // A 00:30 start with two free hours: free until 22:30 the evening before.
    const late = cancellationFee(twoHours, at('2026-11-21T00:30:00+09:00'), 2, at('2026-11-20T20:00:00+09:00'));
    expect(late.applies).toBe('free');
    const json = feeJson(late, 'cancel', ja.locale, ja.t);
    expect(json.free_until).toBe('2026-11-20T22:30:00+09:00');
    expect(json.message).toBe('11月20日(金) 22:30までは無料でキャンセルできます。それ以降はお一人様¥2,000（合計¥4,000）のキャンセル料がかかります。');
    // 1 a.m. belongs to the evening before (business days run 05:00 to 05:00).
    expect(formatDeadline(at('2026-11-21T01:00:00+09:00'), 'ja', ja.t)).toBe('11月20日(金) 翌1:00（11月21日(土)）');
    expect(formatDeadline(at('2026-11-21T05:00:00+09:00'), 'ja', ja.t)).toBe('11月21日(土) 5:00');
  });

  it('speaks the reader’s language with the shared yen format', () => {
    const fee = cancellationFee({ freeHours: 24, feeYen: 3000 }, at('2026-11-21T19:00:00+09:00'), 2, at('2026-11-20T12:00:00+09:00'));
    expect(feeJson(fee, 'cancel', en.locale, en.t).message).toBe('Free cancellation until Fri, Nov 20 19:00. After that, ¥3,000 per person (¥6,000 in total).');
    expect(feeJson({ applies: 'due', perPerson: 3000, total: 6000 }, 'cancel', en.locale, en.t).message).toBe(
      'Cancelling now costs ¥3,000 per person (¥6,000 in total).',
    );
  });

  it('gives each start of a day the fee a booking of it made now carries', () => {
    const now = at('2026-11-20T17:26:00+09:00');
    const slots = [
      { start: '2026-11-20T18:00:00+09:00', end: '2026-11-20T20:00:00+09:00', free_tables: 1 },
      { start: '2026-11-20T19:30:00+09:00', end: '2026-11-20T21:30:00+09:00', free_tables: 2 },
    ];
    const [soon, later] = withFees(slots, twoHours, 2, now, ja);
    expect(soon!.cancellation_fee).toMatchObject({ applies: 'due', total: 4000 });
    expect(later!.cancellation_fee).toMatchObject({ applies: 'free', free_until: '2026-11-20T17:30:00+09:00' });
  });

  it('words the same fee for a change when the starts are offered to move a booking', () => {
    const now = at('2026-11-20T17:26:00+09:00');
    const slots = [{ start: '2026-11-20T18:00:00+09:00', end: '2026-11-20T20:00:00+09:00', free_tables: 1 }];
    const [book] = withFees(slots, twoHours, 2, now, ja);
    const [change] = withFees(slots, twoHours, 2, now, ja, 'change');
    expect(change!.cancellation_fee).toEqual({
      ...book!.cancellation_fee,
      message: 'このお時間はすでにキャンセル料の対象です。変更後にキャンセルすると、お一人様¥2,000（合計¥4,000）がかかります。',
    });
    expect(withFees(slots, twoHours, 2, now, en, 'change')[0]!.cancellation_fee!.message).toBe(
      'This time is already within the fee period: cancelling after the change costs ¥2,000 per person (¥4,000 in total).',
    );
  });

  it('states what a cancellation cost once it is made, and nothing when the store cancelled', () => {
    const booking = {
      start: at('2026-11-20T18:00:00+09:00'),
      partySize: 2,
      // Never moved by the store: the fee counts from the booking's own start and party.
      feeBasis: { start: at('2026-11-20T18:00:00+09:00'), party: 2 },
      status: 'cancelled',
      feePolicy: twoHours,
      cancelledAt: at('2026-11-20T17:00:00+09:00'),
      cancelledByStore: false,
    } as BookingView;
    // Asked later (the answer to a GET): still what it cost when it was cancelled.
    const later = at('2026-11-21T09:00:00+09:00');
    expect(bookingFee(booking, ja, later)).toMatchObject({
      applies: 'due',
      total: 4000,
      message: 'このキャンセルには、お一人様¥2,000（合計¥4,000）のキャンセル料がかかります。',
    });
    expect(bookingFee({ ...booking, cancelledAt: at('2026-11-20T15:00:00+09:00') }, ja, later)).toMatchObject({
      applies: 'free',
      message: 'このキャンセルにキャンセル料はかかりません。',
    });
    expect(bookingFee({ ...booking, cancelledByStore: true }, ja, later)).toMatchObject({ applies: 'none', total: 0 });
  });
});

describe("the store's wording beside the fee line", () => {
  const none = 'キャンセル料はかかりません。';
  it('does not say キャンセル料はかかりません。 twice', () => {
    expect(policyBesideFee(none, 'キャンセル料はかかりません。ご都合が変わった場合は、お早めにご連絡ください。')).toBe(
      'ご都合が変わった場合は、お早めにご連絡ください。',
    );
    expect(policyBesideFee(none, 'キャンセル料はかかりません。')).toBeNull();
  });
  it('keeps a wording that says something else, and leaves 特になし to the caller', () => {
    expect(policyBesideFee('このキャンセルにキャンセル料はかかりません。', '前日からは50%')).toBe('前日からは50%');
    expect(policyBesideFee(none, '')).toBe('');
  });
});
