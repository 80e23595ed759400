/**
 * The contract's one rule for free text (src/lib/contract/fields.ts): what is cleaned, what is
 * refused, and that every free-text field of the booking and watch bodies follows it.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { cleanText, hasForbiddenCharacter, noControlCharacter, optionalText, requiredText } from '../../src/lib/contract/fields';
import { guestSchema } from '../../src/lib/contract/booking';
import { horizonProblem } from '../../src/server/availability';

const guest = {
  store_id: 1,
  start: '2026-11-21T19:00:00+09:00',
  party_size: 2,
  name: '山田 花子',
  name_kana: 'ヤマダ ハナコ',
  phone: '090-1234-5678',
  email: 'hanako@example.jp',
};

describe('the text rule', () => {
  it('drops zero-width characters and turns line breaks into spaces on one line, into \\n in a note', () => {
    expect(cleanText('\u200b山田\u2060花子\ufeff', 'line')).toBe('山田花子');
    expect(cleanText('山田\r\n花子\t様', 'line')).toBe('山田  花子 様');
    expect(cleanText('卵\r\nアレルギー\r乳\t少し', 'multiline')).toBe('卵\nアレルギー\n乳\t少し');
    // Joiners stay: emoji sequences need them.
    expect(cleanText('👨\u200d👩\u200d👧', 'line')).toBe('👨\u200d👩\u200d👧');
  });

  it('refuses controls, bidi overrides and isolates, and lone surrogates', () => {
    for (const bad of [
      '\u0000',
      '\u0007',
      '\u001b',
      '\u007f',
      '\u0085',
      '\u009f',
      '\u202a',
      '\u202e',
      '\u2066',
      '\u2069',
      '\ud800',
      '\udfff',
      'a\udc00\ud800b',
    ]) {
      expect([bad, hasForbiddenCharacter(`x${bad}y`)]).toEqual([bad, true]);
    }
    for (const good of ['山田 花子', 'Ünïcödé', '🍣', 'عربي\u200f', 'x\ny', 'x\ty']) expect([good, hasForbiddenCharacter(good)]).toEqual([good, false]);
  });

  it('is what requiredText and optionalText check, with the field named in the message key', () => {
    expect(z.parse(requiredText(50), ' \u200b山田\r\n花子 ')).toBe('山田  花子');
    expect(z.safeParse(requiredText(50), '\u200b').success).toBe(false);
    const refused = z.safeParse(requiredText(50), '山田\u202e花子');
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.message).toBe('validation.controlCharacter');
    expect(z.parse(optionalText(200, 'multiline'), '卵\r\nアレルギー')).toBe('卵\nアレルギー');
    // Passwords and tokens keep every character but NUL and lone surrogates.
    expect(z.safeParse(z.string().check(noControlCharacter), 'pass\u0007word').success).toBe(true);
    expect(z.safeParse(z.string().check(noControlCharacter), 'pass\ud800word').success).toBe(false);
  });

  it('holds for a guest booking: name refused with a field error, note cleaned', () => {
    const bad = z.safeParse(guestSchema, { ...guest, name: '山田\u0007花子' });
    expect(bad.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['name', 'validation.controlCharacter']]);
    expect(z.parse(guestSchema, { ...guest, note: '窓際\u200b\r\n希望' }).note).toBe('窓際\n希望');
  });
});

describe('the booking horizon', () => {
  const now = new Date('2026-11-20T20:07:00+09:00');
  it('refuses instants before today’s business day or after the last bookable one, before anything is read', () => {
    expect(horizonProblem(new Date('2026-11-20T05:00:00+09:00'), now)).toBeNull();
    expect(horizonProblem(new Date('2026-12-04T04:45:00+09:00'), now)).toBeNull();
    expect(horizonProblem(new Date('2026-12-04T05:00:00+09:00'), now)).toBe('too_far');
    expect(horizonProblem(new Date('2026-11-20T04:45:00+09:00'), now)).toBe('past');
    expect(horizonProblem(new Date('9999-12-31T23:59:59+09:00'), now)).toBe('too_far');
    expect(horizonProblem(new Date('0000-01-01T00:00:00Z'), now)).toBe('past');
    expect(horizonProblem(new Date(Number.NaN), now)).toBe('past');
  });
});
