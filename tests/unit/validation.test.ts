import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ID_MAX, isJapanesePhone, isKana, normaliseKana, normalisePhone, parseId, typedNumber, wholeNumber } from '../../src/lib/validation';
import * as z from 'zod/mini';
import { idSchema, kanaField } from '../../src/lib/contract/fields';
import { kanaReading } from '../../src/lib/format';
import { safeString } from '../../src/server/http/api';
import { isCommonPassword } from '../../src/server/commonPasswords';

describe('Japanese phone numbers', () => {
  it.each([
    ['090-1234-5678', '09012345678'],
    ['080 1234 5678', '08012345678'],
    ['07012345678', '07012345678'],
    ['050-1234-5678', '05012345678'],
    ['03-1234-5678', '0312345678'],
    ['(03)1234-5678', '0312345678'],
    ['0466-12-3456', '0466123456'],
    ['0120-123-456', '0120123456'],
    ['0800-123-4567', '08001234567'],
    ['０９０－１２３４－５６７８', '09012345678'],
    ['090ー1234ー5678', '09012345678'],
    ['+81 90-1234-5678', '09012345678'],
    ['03 1234 5678', '0312345678'],
    ['０９０ー１２３４ー５６７８', '09012345678'],
    ['+81 (0)3-1234-5678', '0312345678'],
  ])('accepts %s as %s', (input, canonical) => {
    expect(normalisePhone(input)).toBe(canonical);
    expect(isJapanesePhone(input)).toBe(true);
  });

  it.each(['', '1234', '090-1234-567', '090-1234-56789', '+1 415 555 0100', '12-3456-7890', '0312345678x', '090-1234-5678 内線2', '050-1234-567', 'abc'])(
    'refuses %j',
    (input) => {
      expect(normalisePhone(input)).toBeNull();
      expect(isJapanesePhone(input)).toBe(false);
    },
  );

  it('accepts every mobile number however it is grouped', () => {
    fc.assert(
      fc.property(fc.constantFrom('070', '080', '090'), fc.stringMatching(/^\d{8}$/), fc.constantFrom('-', ' ', '', '－'), (prefix, rest, sep) => {
        expect(normalisePhone(`${prefix}${sep}${rest.slice(0, 4)}${sep}${rest.slice(4)}`)).toBe(prefix + rest);
      }),
    );
  });
});

describe('kana names', () => {
  it.each(['ヤマダ ハナコ', 'やまだ はなこ', 'ヤマダ　ハナコ', 'ｻﾄｳ ﾀﾛｳ', 'ヴィー', 'ルイ・ヴィトン'])('accepts %s', (name) => {
    expect(isKana(name)).toBe(true);
  });
  it.each(['', '   ', '　', '山田', 'Yamada', 'ヤマダ1', 'ヤマダ花子', 'やまだ!'])('refuses %j', (name) => {
    expect(isKana(name)).toBe(false);
  });
  it('stores kana as full-width katakana with single spaces', () => {
    expect(normaliseKana('やまだ　　ﾊﾅｺ ')).toBe('ヤマダ ハナコ');
  });
  it.each([
    ['やまだ はなこ', 'ヤマダ ハナコ'],
    ['ﾔﾏﾀﾞ ﾊﾅｺ', 'ヤマダ ハナコ'],
    ['ｶﾞｯﾂ　ﾎﾟﾝ', 'ガッツ ポン'],
    ['ゔぁいおりん', 'ヴァイオリン'],
    ['いすゞ', 'イスヾ'],
    ['ヤマダ・ハナコ', 'ヤマダ・ハナコ'],
    ['  ヤマダ ハナコ  ', 'ヤマダ ハナコ'],
  ])('reads %j in the contract as the katakana %j that server and form both keep', (typed, stored) => {
    expect(z.parse(kanaField, typed)).toBe(stored);
  });
  it('refuses what is not kana in the contract, naming the rule', () => {
    const r = z.safeParse(kanaField, '山田');
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toBe('booking.validation.kana');
  });
  it('prints a reading only when it says more than the name', () => {
    expect(kanaReading('焼肉 たけ', 'ヤキニク タケ')).toBe('ヤキニク タケ');
    expect(kanaReading('ソウルポチャ', 'ソウルポチャ')).toBeNull();
    expect(kanaReading('ソウル・ポチャ', 'ソウルポチャ')).toBeNull();
    expect(kanaReading('ｿｳﾙﾎﾟﾁｬ', 'ソウルポチャ')).toBeNull();
    expect(kanaReading('Bar Luna', '')).toBeNull();
  });
});

describe('common passwords', () => {
  it.each(['password', 'Password123', 'QWERTYUIOP', '12345678', '1234567890123', 'aaaaaaaaaa', 'iloveyou'])('refuses %s', (p) => {
    expect(isCommonPassword(p)).toBe(true);
  });
  it.each(['kiwi-lantern-42', 'correct horse battery staple', 'すぐ予約で乾杯しよう'])('accepts %s', (p) => {
    expect(isCommonPassword(p)).toBe(false);
  });
});

describe('ids and text', () => {
  it.each([
    ['1', 1],
    ['42', 42],
    ['2147483647', ID_MAX],
    ['2147483648', null],
    ['9999999999', null],
    ['99999999999999999999', null],
    ['0', null],
    ['01', null],
    ['-1', null],
    ['1e3', null],
    ['１２', null],
    [' 1', null],
    ['', null],
  ])('parseId(%j) is %j', (input, id) => {
    expect(parseId(input)).toBe(id);
  });

  it('bounds ids in JSON bodies the same way', () => {
    expect(idSchema.safeParse(ID_MAX).success).toBe(true);
    expect(idSchema.safeParse(ID_MAX + 1).success).toBe(false);
    expect(idSchema.safeParse(0).success).toBe(false);
  });

  it('refuses a NUL character anywhere, before any other rule, and keeps everything else', () => {
    const name = safeString().check(z.trim(), z.minLength(1), z.maxLength(10));
    for (const bad of ['\u0000', 'a\u0000', '\u0000a', ' 山田\u0000 ']) {
      expect(name.safeParse(bad).error?.issues[0]?.message).toBe('validation.controlCharacter');
    }
    expect(name.parse(' 山田 花子 ')).toBe('山田 花子');
    fc.assert(fc.property(fc.string(), (s) => safeString().safeParse(s).success === !s.includes('\u0000')));
  });
});

describe('numbers as people type them', () => {
  it('reads full-width digits as the whole number they are, leaves blank out and passes anything else on as typed', () => {
    expect(wholeNumber('２０')).toBe(20);
    expect(wholeNumber(' ４ ')).toBe(4);
    expect(wholeNumber('12')).toBe(12);
    expect(wholeNumber('　')).toBeUndefined();
    expect(wholeNumber(undefined)).toBeUndefined();
    expect(wholeNumber('4人')).toBe('4人');
    expect(wholeNumber('-1')).toBe('-1');
    expect(wholeNumber('１２３４', 3)).toBe('１２３４');
    fc.assert(fc.property(fc.nat({ max: 999_999_999 }), (n) => wholeNumber(String(n).replace(/\d/g, (d) => String.fromCharCode(0xff10 + Number(d)))) === n));
  });

  it('gives a query’s number to the schema in ASCII, blank as not given', () => {
    expect(typedNumber('３５．６８')).toBe('35.68');
    expect(typedNumber('－１')).toBe('-1');
    expect(typedNumber(' ')).toBeUndefined();
    expect(typedNumber(4)).toBe(4);
  });
});

describe('full-width e-mail addresses', () => {
  it('are read as the ASCII they stand for, by the contract and by accounts alike', async () => {
    const { emailField } = await import('../../src/lib/contract/fields');
    const { emailSchema } = await import('../../src/server/auth');
    const typed = ' ＺＥＮＫＡＫＵ＠ｅｘａｍｐｌｅ．ｊｐ ';
    expect(z.parse(emailField, typed)).toBe('ZENKAKU@example.jp');
    expect(emailSchema.parse(typed)).toBe('zenkaku@example.jp');
    expect(z.safeParse(emailField, 'ＺＥＮＫＡＫＵ＠').success).toBe(false);
    expect(emailSchema.safeParse('ＺＥＮＫＡＫＵ').success).toBe(false);
  });
});
