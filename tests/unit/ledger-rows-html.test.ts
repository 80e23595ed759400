/**
 * The ledger's rows and timeline lines are kept by what they are made from
 * (src/server/render/ledger.ts): the same booking at the same moment is the same markup, and any
 * change staff must see — a note, a mark, the start coming, the language, a form opened — gives the
 * new markup, never the kept one. Text and attributes are escaped as Astro escapes them.
 */
import { describe, expect, it } from 'vitest';
import { ledgerRows, timelineLines, type OpenForm, type RowOptions } from '../../src/server/render/ledger';
import { timelineOf } from '../../src/server/staff/ledger';
import { translatorFor } from '../../src/i18n';
import { timesUnder } from '../../src/lib/datetime';
import type { StoreBookingJson } from '../../src/lib/contract/staff';

const DAY = '2026-11-24';
const iso = (hhmm: string) => `${DAY}T${hhmm}:00+09:00`;
const booking = (extra: Partial<StoreBookingJson> = {}): StoreBookingJson => ({
  id: 41,
  code: 'SG-41',
  store_id: 1,
  start: iso('19:00'),
  end: iso('21:00'),
  party_size: 2,
  status: 'confirmed',
  table: { id: 10, label: 'T1', kind: 'table' },
  contact: { name: '山田 <花子>', name_kana: 'ヤマダ ハナコ', phone: '090-1234-5678', email: '', guest: true },
  note: '',
  seat_preference: null,
  attendance: null,
  store_cancel_reason: null,
  undo_until: null,
  late: null,
  release_from: iso('19:15'),
  created_at: iso('10:00'),
  updated_at: iso('10:00'),
  cancelled_at: null,
  ...extra,
});
const options = (at: string, over: Partial<RowOptions> = {}, locale: 'ja' | 'en' = 'ja'): RowOptions => {
  const t = translatorFor(locale);
  return {
    action: '/list-booking-manage',
    at: Date.parse(iso(at)),
    date: DAY,
    locale,
    time: timesUnder(DAY, t),
    t,
    changing: () => false,
    cancelling: () => false,
    ...over,
  };
};
const html = (b: StoreBookingJson, o: RowOptions) =>
  ledgerRows([b], o)
    .map((p) => (p instanceof Uint8Array ? Buffer.from(p).toString('utf8') : '[form]'))
    .join('');

describe('ledger row markup', () => {
  it('shows the booking, escaped, with its actions before it starts', () => {
    const out = html(booking(), options('18:00'));
    expect(out).toContain('山田 &lt;花子&gt;');
    expect(out).toContain('href="tel:090-1234-5678"');
    expect(out).toContain('href="/list-booking-manage?change=41#change-41"');
    expect(out).toContain('value="arrived"');
    expect(out).not.toContain('value="no_show"');
  });

  it('is the same markup for the same booking and moment, and new markup for each change', () => {
    const before = html(booking(), options('18:00'));
    expect(html(booking(), options('18:00'))).toBe(before);
    // A note written: shown at once.
    expect(html(booking({ note: '窓側 & "静か"' }), options('18:00'))).toContain('窓側 &amp; &quot;静か&quot;');
    // The start has come: a no-show may be marked, no change made; past the grace period, 席を解放.
    const begun = html(booking(), options('19:20'));
    expect(begun).toContain('value="no_show"');
    expect(begun).not.toContain('change=41');
    expect(begun).toContain('btn-warning');
    // Marked arrived: no actions left but the undo while it lasts.
    const arrived = html(booking({ attendance: 'arrived', undo_until: iso('19:30') }), options('19:25'));
    expect(arrived).toContain('name="action" value="undo"');
    expect(arrived).not.toContain('value="arrived"');
    expect(html(booking({ attendance: 'arrived', undo_until: iso('19:30') }), options('19:31'))).not.toContain('value="undo"');
    // Another language; another address.
    expect(html(booking(), options('18:00', {}, 'en'))).not.toBe(before);
    expect(html(booking(), options('18:00', { action: '/list-booking-manage?store=2' }))).toContain(
      'href="/list-booking-manage?store=2&amp;change=41#change-41"',
    );
  });

  it('leaves room for the open form, and draws the row without its link', () => {
    const parts = ledgerRows([booking(), booking({ id: 42, code: 'SG-42' })], options('18:00', { changing: (id) => id === 41 }));
    expect(parts).toHaveLength(3);
    const form = parts[1] as OpenForm;
    expect(form.booking.id).toBe(41);
    expect(form).toMatchObject({ change: true, cancel: false });
    const [head, tail] = [parts[0], parts[2]].map((p) => Buffer.from(p as Uint8Array).toString('utf8'));
    expect(head).not.toContain('change=41');
    expect(head).toContain('cancel=41');
    expect(head.endsWith('</li>')).toBe(false);
    expect(tail.startsWith('</div></li><li')).toBe(true);
    expect(tail).toContain('change=42');
  });
});

describe('timeline lines', () => {
  it('moves the now mark without keeping an old one, and escapes the labels', () => {
    const table = { id: 10, label: 'T<1>', kind: 'table' as const, min_party: 1, max_party: 4, online: false };
    const line = (at: string, b = booking()) =>
      Buffer.from(
        timelineLines(timelineOf(DAY, [table], [b], [], new Date(iso(at))).tables, 500, DAY, 'ja', timesUnder(DAY, translatorFor('ja')), translatorFor('ja')),
      ).toString('utf8');
    const out = line('18:00');
    // In an attribute only & and " are escaped, as Astro does.
    expect(out).toContain('aria-label="T<1>: 19:00–21:00 山田 <花子>"');
    expect(out).toContain('<title>19:00–21:00 山田 &lt;花子&gt;</title>');
    expect(out).toContain('<line x1="500" x2="500"');
    expect(out.endsWith('</svg></li>')).toBe(true);
    const none = Buffer.from(
      timelineLines(
        timelineOf(DAY, [table], [booking()], [], new Date(iso('18:00'))).tables,
        null,
        DAY,
        'ja',
        timesUnder(DAY, translatorFor('ja')),
        translatorFor('ja'),
      ),
    ).toString('utf8');
    expect(none).not.toContain('<line');
    expect(line('18:00', booking({ contact: { ...booking().contact, name: '佐藤' } }))).toContain('19:00–21:00 佐藤');
  });
});
