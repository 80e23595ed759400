/**
 * Rules for what people and clients send, checked the same way on the server and in the browser:
 * ids in paths and Japanese contact details. Plain functions without zod, so any page or island
 * may use them; the schemas of src/lib/contract are built on them.
 */
import { PHONE_INPUT_MAX } from './contract/limits';

/** The largest id a table holds (PostgreSQL `integer`); a larger one names nothing. */
export const ID_MAX = 2_147_483_647;

/**
 * A database id written as text (a path segment, a query value): positive, no sign, no leading
 * zero, at most ID_MAX. Anything else is null, which callers answer as "not found".
 * @example parseId('42') // 42
 * @example parseId('2147483648') // null
 */
export function parseId(value: unknown): number | null {
  if (typeof value !== 'string' || !/^[1-9]\d{0,9}$/.test(value)) return null;
  const id = Number(value);
  return id <= ID_MAX ? id : null;
}

/** Dashes people type between phone digit groups, ASCII and Japanese (ー included: IMEs produce it). */
const PHONE_SEPARATORS = /[\s\-‐‑‒–—―−ー－()（）.]/g;

/**
 * Phone number in its canonical form (digits only, domestic), or null when it is not a Japanese
 * number: landlines and 0120 (10 digits), mobiles 070/080/090, IP phones 050 and 0800 (11 digits).
 * Full-width digits, dashes, spaces, brackets and an international +81 prefix are accepted.
 * @example normalisePhone('０９０－１２３４－５６７８') // '09012345678'
 * @example normalisePhone('+81 3-1234-5678') // '0312345678'
 */
export function normalisePhone(input: string): string | null {
  if (typeof input !== 'string' || input.length > PHONE_INPUT_MAX) return null;
  let s = input.normalize('NFKC').trim().replace(PHONE_SEPARATORS, '');
  if (s.startsWith('+81')) s = `0${s.slice(3).replace(/^0/, '')}`;
  if (!/^\d+$/.test(s)) return null;
  if (/^0[5789]0\d{8}$/.test(s)) return s;
  if (/^0800\d{7}$/.test(s)) return s;
  if (/^0[1-9]\d{8}$/.test(s) && !/^0[5789]0/.test(s)) return s;
  return null;
}

/**
 * An e-mail address as stored and shown: NFKC (a full-width address typed with the IME on is read
 * as the ASCII it stands for), surrounding spaces dropped.
 * @example normaliseEmail(' ＺＥＮＫＡＫＵ＠ｅｘａｍｐｌｅ．ｊｐ ') // 'ZENKAKU@example.jp'
 */
export function normaliseEmail(input: string): string {
  return input.normalize('NFKC').trim();
}

/**
 * A whole number as a person typed it, full-width digits included (２０ is 20: phone and tablet IMEs
 * often type them): the number, undefined when blank, or the text as typed when it is not a whole
 * number of at most `digits` digits, so that the schema refuses it and names the field.
 * @example wholeNumber('２０') // 20
 * @example wholeNumber(' ') // undefined
 * @example wholeNumber('4人') // '4人'
 */
export function wholeNumber(value: string | undefined, digits = 9): number | string | undefined {
  if (typeof value !== 'string') return undefined;
  const v = value.normalize('NFKC').trim();
  if (v === '') return undefined;
  return /^\d+$/.test(v) && v.length <= digits ? Number(v) : value;
}

/**
 * A number in a query or form as the schema should read it: full-width digits, signs and points as
 * their ASCII (NFKC), blank as not given.
 * @example typedNumber('３５．６８') // '35.68'
 */
export const typedNumber = (v: unknown): unknown => {
  if (typeof v !== 'string') return v;
  const s = v.normalize('NFKC').trim();
  return s === '' ? undefined : s;
};

/** @example isJapanesePhone('03-1234-5678') // true */
export function isJapanesePhone(input: string): boolean {
  return normalisePhone(input) !== null;
}

/** True when a text has kana or kanji: a Japanese name then needs its Latin reading beside it for other languages. */
export const hasJapanese = (s: string): boolean => /[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}]/u.test(s);

/** Hiragana, katakana (full and half width), the long-vowel mark, the middle dot and spaces. */
const KANA = /^[\u3041-\u3096\u309D\u309E\u30A1-\u30FA\u30FC-\u30FE\u30FB\uFF66-\uFF9F\u3000 ]+$/;

/**
 * True for a name written in kana (フリガナ). Blank is not kana.
 * @example isKana('ヤマダ ハナコ') // true
 * @example isKana('山田') // false
 */
export function isKana(input: string): boolean {
  if (typeof input !== 'string') return false;
  const s = input.trim();
  return s.length > 0 && /[^\u3000 ]/.test(s) && KANA.test(s);
}

/**
 * Kana in the form stored: full-width katakana, single spaces.
 * @example normaliseKana('やまだ　ﾊﾅｺ') // 'ヤマダ ハナコ'
 */
export function normaliseKana(input: string): string {
  return input
    .normalize('NFKC')
    .replace(/[\u3041-\u3096\u309D\u309E]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0x60))
    .replace(/[\u3000 ]+/g, ' ')
    .trim();
}
