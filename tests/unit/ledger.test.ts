import { describe, expect, it } from 'vitest';
import { coverCounts, timelineOf } from '../../src/server/staff/ledger';
import type { BlockJson, StoreBookingJson } from '../../src/lib/contract/staff';

const DAY = '2026-11-24';
const at = (hhmm: string, day = DAY) => new Date(`${day}T${hhmm}:00+09:00`);
let nextId = 1;
function booking(start: string, end: string, party: number, extra: Partial<StoreBookingJson> = {}): StoreBookingJson {
  const id = nextId++;
  return {
    id,
    code: `SG-${id}`,
    store_id: 1,
    start: `${DAY}T${start}:00+09:00`,
    end: `${DAY}T${end}:00+09:00`,
    party_size: party,
    status: 'confirmed',
    table: { id: 10, label: 'T1', kind: 'table' },
    contact: { name: `客 ${id}`, name_kana: '', phone: '', email: '', guest: true },
    note: '',
    seat_preference: null,
    attendance: null,
    store_cancel_reason: null,
    undo_until: null,
    late: null,
    release_from: `${DAY}T${start}:00+09:00`,
    created_at: `${DAY}T10:00:00+09:00`,
    updated_at: `${DAY}T10:00:00+09:00`,
    cancelled_at: null,
    ...extra,
  };
}

describe('the ledger’s covers', () => {
  it('counts people at their table now, starting within the hour, and later, leaving out the cancelled and no-shows', () => {
    const items = [
      booking('18:00', '20:00', 4),
      booking('19:00', '21:00', 2, { attendance: 'arrived' }),
      booking('19:00', '21:00', 3, { attendance: 'no_show' }),
      booking('20:00', '22:00', 5),
      booking('20:30', '22:30', 2),
      booking('21:00', '23:00', 6),
      booking('22:00', '23:00', 8, { status: 'cancelled' }),
    ];
    expect(coverCounts(items, at('19:30'))).toEqual({ now: 6, nextHour: 7, later: 6 });
    // A party whose stay ended is no longer counted.
    expect(coverCounts(items, at('22:45'))).toEqual({ now: 6, nextHour: 0, later: 0 });
  });
});

describe('the ledger’s timeline', () => {
  const tables = [
    { id: 10, label: 'T1', kind: 'table' as const, min_party: 1, max_party: 4, online: true },
    { id: 11, label: 'C1', kind: 'counter' as const, min_party: 1, max_party: 2, online: false },
  ];
  const block: BlockJson = {
    id: 99,
    store_id: 1,
    table: { id: 11, label: 'C1', kind: 'counter' },
    start: `${DAY}T21:00:00+09:00`,
    end: `${DAY}T22:00:00+09:00`,
    reason: '貸切',
    created_at: `${DAY}T10:00:00+09:00`,
    released_at: null,
  };

  it('spans whole hours from the first start to the last end, with bookings and blocks on their tables and now marked', () => {
    const items = [booking('18:00', '20:00', 4), booking('19:00', '20:00', 2, { status: 'cancelled' })];
    const line = timelineOf(DAY, tables, items, [block], at('19:00'));
    expect(line.from).toBe(at('18:00').getTime());
    expect(line.to).toBe(at('22:00').getTime());
    expect(line.hours).toHaveLength(5);
    expect(line.now).toBeCloseTo(0.25);
    expect(line.tables[0]!.bars).toEqual([expect.objectContaining({ kind: 'booking', left: 0, width: 0.5 })]);
    expect(line.tables[1]!.bars).toEqual([expect.objectContaining({ kind: 'block', left: 0.75, width: 0.25, label: '貸切' })]);
  });

  it('marks no now on another day, and leaves released blocks out', () => {
    const line = timelineOf(DAY, tables, [booking('18:00', '20:00', 4)], [{ ...block, released_at: `${DAY}T20:00:00+09:00` }], at('12:00', '2026-11-25'));
    expect(line.now).toBeNull();
    expect(line.tables[1]!.bars).toEqual([]);
    expect(line.to - line.from).toBe(3 * 3600_000);
  });
});
