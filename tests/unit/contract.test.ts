/**
 * The contract: the booking widget (schemas + the dictionary it is given) and the API (schemas +
 * the server's translator) answer every input of one table alike, in Japanese and English. Full-width digits,
 * half-width kana and the limits' edges included.
 */
import { describe, expect, it } from 'vitest';
import { translatorFor } from '../../src/i18n';
import { ApiError, validate } from '../../src/server/http/api';
import { widgetLabels } from '../../src/server/bookings/pages';
import { bookingIssues, bookingSchemas } from '../../src/lib/contract/booking';
import { fieldErrors, fromDictionary } from '../../src/lib/contract/messages';
import { NOTE_MAX, PARTY_MAX } from '../../src/lib/contract/limits';
import { ID_MAX } from '../../src/lib/validation';
import { bookingBody } from '../../src/islands/booking/api';

const good = {
  store_id: 7,
  start: '2026-11-21T19:00:00+09:00',
  party_size: 2,
  seat_preference: null,
  note: '',
  name: '山田 花子',
  name_kana: 'ヤマダ ハナコ',
  phone: '090-1234-5678',
  email: 'hanako@example.jp',
};

/** [what, change to the good body, the field refused (null: accepted)] */
const table: Array<[string, Record<string, unknown>, string | null]> = [
  ['a plain guest booking', {}, null],
  ['a phone in full-width digits and dashes (IME input)', { phone: '０９０－１２３４－５６７８' }, null],
  ['a phone with the long-vowel mark as dashes', { phone: '090ー1234ー5678' }, null],
  ['a phone with +81', { phone: '+81 90-1234-5678' }, null],
  ['a landline in brackets', { phone: '(03)1234-5678' }, null],
  ['half-width kana', { name_kana: 'ﾔﾏﾀﾞ ﾊﾅｺ' }, null],
  ['hiragana', { name_kana: 'やまだ　はなこ' }, null],
  ['an e-mail with spaces around it', { email: ' hanako@example.jp ' }, null],
  ['a note of exactly the limit', { note: 'あ'.repeat(NOTE_MAX) }, null],
  ['the largest party', { party_size: PARTY_MAX }, null],
  ['a seat preference', { seat_preference: 'tatami' }, null],
  ['a phone too short', { phone: '090-1234-567' }, 'phone'],
  ['a foreign phone', { phone: '+1 415 555 0100' }, 'phone'],
  ['no phone', { phone: '' }, 'phone'],
  ['kana in latin letters', { name_kana: 'Yamada' }, 'name_kana'],
  ['kana in kanji', { name_kana: '山田' }, 'name_kana'],
  ['a blank name', { name: '   ' }, 'name'],
  ['a NUL in the name', { name: '山田\u0000' }, 'name'],
  ['a note one over the limit', { note: 'あ'.repeat(NOTE_MAX + 1) }, 'note'],
  ['no e-mail', { email: '' }, 'email'],
  ['an e-mail without a domain', { email: 'hanako@' }, 'email'],
  ['party 0', { party_size: 0 }, 'party_size'],
  ['a party over the limit', { party_size: PARTY_MAX + 1 }, 'party_size'],
  ['half a person', { party_size: 2.5 }, 'party_size'],
  ['no start chosen', { start: undefined }, 'start'],
  ['a start without an offset', { start: '2026-11-21T19:00:00' }, 'start'],
  ['an unknown seat kind', { seat_preference: 'sofa' }, 'seat_preference'],
  ['store id 0', { store_id: 0 }, 'store_id'],
  ['a store id past the database range', { store_id: ID_MAX + 1 }, 'store_id'],
];

/** What the API answers: its 400's field messages, or {} when the body passes. */
function serverFields(locale: 'ja' | 'en', kind: keyof typeof bookingSchemas, body: unknown): Record<string, string> {
  try {
    validate(translatorFor(locale), bookingSchemas[kind], body);
    return {};
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    expect([e.status, e.code]).toEqual([400, 'validation_failed']);
    return e.options.fields ?? {};
  }
}

/** What the widget shows, with only the labels the page gives it. */
const browserFields = (locale: 'ja' | 'en', kind: keyof typeof bookingSchemas, body: unknown) =>
  fieldErrors(fromDictionary(widgetLabels(locale), locale), bookingIssues(kind, body));

describe.each(['ja', 'en'] as const)('booking form in %s: browser and server agree', (locale) => {
  it.each(table)('%s', (_, change, field) => {
    const body = { ...good, ...change };
    const server = serverFields(locale, 'guest', body);
    expect(browserFields(locale, 'guest', body)).toEqual(server);
    expect(Object.keys(server)).toEqual(field ? [field] : []);
    // Every message is translated: no key and no raw zod text reaches the diner.
    for (const message of Object.values(server)) expect(message).not.toMatch(/^[a-z_]+\.[\w.]+$|Invalid|expected/);
  });
});

describe('messages a diner reads', () => {
  it('names the field and the rule in Japanese', () => {
    expect(browserFields('ja', 'guest', { ...good, phone: '1234' })).toEqual({ phone: '電話番号は国内の電話番号（例: 090-1234-5678）で入力してください' });
    expect(browserFields('ja', 'guest', { ...good, name_kana: 'Yamada' })).toEqual({ name_kana: 'フリガナはカタカナまたはひらがなで入力してください' });
    expect(browserFields('ja', 'guest', { ...good, note: 'x'.repeat(NOTE_MAX + 1) }).note).toContain(String(NOTE_MAX));
  });

  it('asks to choose what is picked, and names the field as its label does (お名前)', () => {
    const { start: _start, name: _name, ...rest } = good as Record<string, unknown>;
    const ja = translatorFor('ja');
    expect(serverFields('ja', 'guest', rest)).toEqual({ start: '開始時刻を選択してください', name: 'お名前を入力してください' });
    expect(browserFields('ja', 'guest', rest)).toEqual(serverFields('ja', 'guest', rest));
    // The label above the field is the word the error uses, in every language.
    for (const code of ['ja', 'en', 'zh', 'ko', 'es', 'fr', 'de', 'pt', 'ru', 'ar'] as const) {
      const t = translatorFor(code);
      expect(serverFields(code as 'ja', 'guest', rest).name).toContain(t('booking.guest.name'));
    }
    expect(ja('booking.guest.name')).toBe('お名前');
  });

  it('a change must change something, on both sides', () => {
    expect(serverFields('ja', 'edit', {})).toEqual({ _: '変更する項目がありません' });
    expect(browserFields('ja', 'edit', {})).toEqual({ _: '変更する項目がありません' });
  });

  it('the widget sends what the form holds, and no start when none is picked', () => {
    const values = {
      date: '2026-11-21',
      party: 2,
      start: '',
      seat: '' as const,
      note: '',
      contact: { name: '山田', name_kana: 'ヤマダ', phone: '０９０－１２３４－５６７８', email: 'a@example.jp' },
    };
    const body = bookingBody('guest', 7, values);
    expect(body).toMatchObject({ store_id: 7, party_size: 2, seat_preference: null, phone: '０９０－１２３４－５６７８' });
    expect(Object.keys(serverFields('ja', 'guest', body))).toEqual(['start']);
    expect(bookingIssues('guest', { ...body, start: good.start })).toEqual([]);
    expect(bookingBody('edit', 7, values)).not.toHaveProperty('store_id');
  });
});
