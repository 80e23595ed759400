/**
 * The fourteen bookable days a store page and booking form offer are kept per language for the
 * business day: at 05:00 Tokyo the list moves on, and a caller adding to its copy changes nothing
 * for the next one. The store page's query schema, kept the same way, moves on with it.
 */
import { describe, expect, it } from 'vitest';
import { dateChoices } from '../../src/server/bookings/pages';
import { availabilityQuerySchema } from '../../src/server/stores/query';
import { translatorFor } from '../../src/i18n';
import { BOOKING_DAYS_AHEAD } from '../../src/server/availability';

const ja = translatorFor('ja');

describe('dateChoices', () => {
  it('moves on with the business day at 05:00 Tokyo, not at midnight', () => {
    const late = dateChoices('ja', ja, new Date('2026-11-24T04:59:00+09:00'));
    expect(late).toHaveLength(BOOKING_DAYS_AHEAD + 1);
    expect(late[0]).toEqual({ value: '2026-11-23', label: expect.stringContaining('11月23日') });
    expect(late[0]!.label).toContain('今日');
    const morning = dateChoices('ja', ja, new Date('2026-11-24T05:00:00+09:00'));
    expect(morning[0]!.value).toBe('2026-11-24');
    expect(morning[0]!.label).toContain('今日');
    expect(morning.at(-1)!.value).toBe('2026-12-07');
    expect(dateChoices('en', translatorFor('en'), new Date('2026-11-24T05:00:00+09:00'))[1]!.label).not.toBe(morning[1]!.label);
  });

  it('gives each caller its own list', () => {
    const at = new Date('2026-11-25T12:00:00+09:00');
    const first = dateChoices('ja', ja, at);
    first.unshift({ value: '2026-11-01', label: 'x' });
    first[1]!.label = 'changed';
    const again = dateChoices('ja', ja, at);
    expect(again[0]!.value).toBe('2026-11-25');
    expect(again[0]!.label).not.toBe('changed');
  });
});

describe('availabilityQuerySchema', () => {
  it('takes the dates of the business day it is asked on, also when kept from an earlier one', () => {
    const late = availabilityQuerySchema(new Date('2026-11-24T04:59:00+09:00'));
    expect(late.safeParse({ date: '2026-11-23' }).success).toBe(true);
    expect(late.parse({}).date).toBe('2026-11-23');
    const morning = availabilityQuerySchema(new Date('2026-11-24T05:00:00+09:00'));
    expect(morning.safeParse({ date: '2026-11-23' }).success).toBe(false);
    expect(morning.safeParse({ date: '2026-12-07' }).success).toBe(true);
    expect(morning.parse({}).date).toBe('2026-11-24');
  });
});
