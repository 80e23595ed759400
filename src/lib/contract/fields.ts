/**
 * Field schemas the contract's objects are built from. Written with `zod/mini`, which tree-shakes,
 * so an island that validates a form ships a few kilobytes of it, not the whole library.
 */
import * as z from 'zod/mini';
import { ID_MAX, isKana, normaliseKana, normalisePhone } from '../validation';
import { EMAIL_MAX, GUEST_NAME_MAX, PHONE_INPUT_MAX } from './limits';

/**
 * Refuses the NUL character, which no one types and which PostgreSQL cannot store (it would
 * otherwise surface as a 500). Every text field carries it; the message names the field.
 */
export const noControlCharacter = z.refine<string>((s) => !s.includes('\u0000'), { message: 'validation.controlCharacter' });

/** An id in a JSON body: a positive integer the database can hold. */
export const idSchema = z.int().check(z.minimum(1), z.maximum(ID_MAX));

/** Text as typed, trimmed, not blank, at most `max` characters. */
export const requiredText = (max: number) => z.string().check(noControlCharacter, z.trim(), z.minLength(1), z.maxLength(max));

/** Free text that may be left out (trimmed when it is stored). */
export const optionalText = (max: number) => z.optional(z.string().check(noControlCharacter, z.maxLength(max)));

/**
 * A name in kana (フリガナ), typed in hiragana or katakana, full or half width, and read as the
 * full-width katakana that is stored and shown: `やまだ　ﾊﾅｺ` → `ヤマダ ハナコ`. The booking widget
 * shows the diner this same result, so what they confirm is what the store sees.
 */
export const kanaField = z.pipe(requiredText(GUEST_NAME_MAX).check(z.refine(isKana, { message: 'booking.validation.kana' })), z.transform(normaliseKana));

/** A Japanese phone number as people type it: full-width digits, dashes and +81 included. */
export const phoneField = requiredText(PHONE_INPUT_MAX).check(z.refine((v) => normalisePhone(v) !== null, { message: 'booking.validation.phone' }));

/** An e-mail address; surrounding spaces (left by autofill) are dropped. */
export const emailField = z.pipe(z.string().check(noControlCharacter, z.trim(), z.maxLength(EMAIL_MAX)), z.email());
