/**
 * Field schemas the contract's objects are built from. Written with `zod/mini`, which tree-shakes,
 * so an island that validates a form ships a few kilobytes of it, not the whole library.
 */
import * as z from 'zod/mini';
import { ID_MAX, isKana, normaliseEmail, normaliseKana, normalisePhone } from '../validation';
import { EMAIL_MAX, GUEST_NAME_MAX, PHONE_INPUT_MAX } from './limits';

/** A high or low surrogate without its other half: not a character, and PostgreSQL cannot store it. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Refuses what no one types and a database cannot store: the NUL character and a lone UTF-16
 * surrogate. Every string carries it, passwords and tokens included (which keep every other
 * character as sent); the message names the field.
 */
export const noControlCharacter = z.refine<string>((s) => !s.includes('\u0000') && !LONE_SURROGATE.test(s), { message: 'validation.controlCharacter' });

/**
 * The two kinds of free text people type: one line (names, kana, a keyword, a reason) and several
 * (a booking's note, a textarea).
 */
export type TextKind = 'line' | 'multiline';

/**
 * Invisible characters a paste brings along (zero-width space, word joiner, byte-order mark): no one
 * means them, and they make equal names differ, so they are dropped. The zero-width joiner and
 * non-joiner stay: emoji sequences and some scripts need them.
 */
const INVISIBLE = /[\u200B\u2060\uFEFF]/g;

/**
 * Characters that change how text around them is shown or read rather than being text: C0 and
 * C1 controls, DEL, and the bidirectional embeddings, overrides and isolates (U+202E turns
 * `gpj.exe` into `exe.jpg`). Tab and line breaks are handled before this is checked.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is this pattern's job.
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/;

/**
 * Free text as it is kept: invisible characters dropped, line breaks as `\n` — or, on one line,
 * tabs and line breaks as a space (autofill and pastes bring them).
 * @example cleanText('山田\u200B\r\n花子', 'line') // '山田  花子'
 * @example cleanText('卵\r\nアレルギー', 'multiline') // '卵\nアレルギー'
 */
export function cleanText(s: string, kind: TextKind): string {
  const visible = s.replace(INVISIBLE, '');
  return kind === 'line' ? visible.replace(/[\t\r\n]/g, ' ') : visible.replace(/\r\n?/g, '\n');
}

/**
 * True when cleaned free text still holds something that is not text (a control character, a bidi
 * override, a lone surrogate): refused with a field error rather than stored.
 */
export function hasForbiddenCharacter(s: string): boolean {
  return FORBIDDEN.test(s) || LONE_SURROGATE.test(s);
}

/**
 * The one rule of every free-text field: cleaned as `cleanText` says, then refused when something
 * that is not text is left. Checks for a string schema, first in its list.
 */
export const textRule = (kind: TextKind = 'line') =>
  [z.overwrite<string>((s) => cleanText(s, kind)), z.refine<string>((s) => !hasForbiddenCharacter(s), { message: 'validation.controlCharacter' })] as const;

/** An id in a JSON body: a positive integer the database can hold. */
export const idSchema = z.int().check(z.minimum(1), z.maximum(ID_MAX));

/** Text as typed, trimmed, not blank, at most `max` characters. */
export const requiredText = (max: number, kind: TextKind = 'line') => z.string().check(...textRule(kind), z.trim(), z.minLength(1), z.maxLength(max));

/** Free text that may be left out (trimmed when it is stored). */
export const optionalText = (max: number, kind: TextKind = 'line') => z.optional(z.string().check(...textRule(kind), z.maxLength(max)));

/**
 * A name in kana (フリガナ), typed in hiragana or katakana, full or half width, and read as the
 * full-width katakana that is stored and shown: `やまだ　ﾊﾅｺ` → `ヤマダ ハナコ`. The booking widget
 * shows the diner this same result, so what they confirm is what the store sees.
 */
export const kanaText = (max: number) => z.pipe(requiredText(max).check(z.refine(isKana, { message: 'booking.validation.kana' })), z.transform(normaliseKana));
export const kanaField = kanaText(GUEST_NAME_MAX);

/** A Japanese phone number as people type it: full-width digits, dashes and +81 included. */
export const phoneField = requiredText(PHONE_INPUT_MAX).check(z.refine((v) => normalisePhone(v) !== null, { message: 'booking.validation.phone' }));

/** Text that may be left empty (''), else at most `max` characters. */
const emptyOrText = (max: number) => z.string().check(...textRule('line'), z.trim(), z.maxLength(max));

/** A kana name that may be left empty (an account's reading): the same rule and message as `kanaField`. */
export const optionalKanaField = (max: number) =>
  z.pipe(
    emptyOrText(max).check(z.refine((v) => v === '' || isKana(v), { message: 'booking.validation.kana' })),
    z.transform((v) => (v === '' ? '' : normaliseKana(v))),
  );

/** A phone number that may be left empty (an account's), kept in its normalised form: the same rule and message as `phoneField`. */
export const optionalPhoneField = z.pipe(
  emptyOrText(PHONE_INPUT_MAX).check(z.refine((v) => v === '' || normalisePhone(v) !== null, { message: 'booking.validation.phone' })),
  z.transform((v) => (v === '' ? '' : normalisePhone(v)!)),
);

/** An e-mail address, full-width accepted and read as ASCII; surrounding spaces (left by autofill) are dropped. */
export const emailField = z.pipe(z.string().check(noControlCharacter, z.overwrite(normaliseEmail), z.maxLength(EMAIL_MAX)), z.email());
