/**
 * The numbers the copy states (bookable days ahead, the start step, the reset link's life) come
 * from the contract: messages name them (`{{bookingDaysAhead}}`), and the dictionaries fill them in.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { translatorFor, type MessageKey } from '../../src/i18n';
import { LOCALES } from '../../src/i18n/locales';
import { COPY_NUMBERS } from '../../src/lib/contract/limits';

const STATING: Partial<Record<MessageKey, keyof typeof COPY_NUMBERS>> = {
  'booking.error.start.too_far': 'bookingDaysAhead',
  'booking.link.date': 'bookingDaysAhead',
  'discovery.validation.date': 'bookingDaysAhead',
  'discovery.store.noOpenDay': 'bookingDaysAhead',
  'watch.error.tooFar': 'bookingDaysAhead',
  'booking.error.start.unaligned': 'slotMinutes',
  'auth.forgot.sent': 'resetMinutes',
  'auth.mail.reset.body': 'resetMinutes',
};

describe('numbers in the copy', () => {
  it.each(LOCALES.map((l) => l.code))('are the contract’s in %s', (code) => {
    const t = translatorFor(code);
    for (const [key, name] of Object.entries(STATING)) {
      const text = t(key as MessageKey, { field: 'x', asked: 'x', date: 'x', count: 2, link: 'x' });
      expect([key, text.includes(String(COPY_NUMBERS[name]))]).toEqual([key, true]);
      expect([key, text.includes('{{')]).toEqual([key, false]);
    }
  });

  it('are never written as digits in the messages that state them', () => {
    const dir = path.resolve('src/i18n/locales');
    for (const code of fs.readdirSync(dir)) {
      const messages = Object.assign(
        {},
        ...fs.readdirSync(path.join(dir, code)).map((f) => JSON.parse(fs.readFileSync(path.join(dir, code, f), 'utf8'))),
      ) as Record<string, string>;
      for (const [key, name] of Object.entries(STATING)) {
        expect([code, key, messages[key]?.includes(`{{${name}}}`)]).toEqual([code, key, true]);
        expect([code, key, messages[key]?.includes(String(COPY_NUMBERS[name!]))]).toEqual([code, key, false]);
      }
    }
  });
});
