import { describe, expect, it, vi } from 'vitest';
import { detectLocale } from '../../src/i18n/detect';
import { dictionaries, directionOf, pick, PLURAL_FORMS, translatorFor, type MessageKey } from '../../src/i18n';
import { fromDictionary } from '../../src/lib/contract/messages';
import { LOCALES, LOCALE_CODES } from '../../src/i18n/locales';

describe('locale detection (spec section 4)', () => {
  it('prefers the chosen locale from the cookie', () => {
    expect(detectLocale({ cookie: 'fr', acceptLanguage: 'ja-JP' })).toBe('fr');
  });
  it('takes the browser language before the dash when supported', () => {
    expect(detectLocale({ acceptLanguage: 'ja-JP,ja;q=0.9,en;q=0.8' })).toBe('ja');
    expect(detectLocale({ acceptLanguage: 'zh-TW' })).toBe('zh');
    expect(detectLocale({ acceptLanguage: 'en;q=0.5, ko-KR;q=0.9' })).toBe('ko');
  });
  it('falls back to en for unsupported or missing languages', () => {
    expect(detectLocale({ acceptLanguage: 'it-IT' })).toBe('en');
    expect(detectLocale({})).toBe('en');
    expect(detectLocale({ cookie: 'xx', acceptLanguage: '' })).toBe('en');
  });
  it('logs a failure while reading and keeps en', () => {
    const log = vi.fn();
    const hostile = {
      get cookie(): string {
        throw new Error('boom');
      },
    };
    expect(detectLocale(hostile, log)).toBe('en');
    expect(log).toHaveBeenCalledOnce();
  });
});

describe('translation tables', () => {
  it('has the ten locales of the spec with their flags', () => {
    expect(LOCALES.map((l) => `${l.code}:${l.flag}`).sort()).toEqual(
      ['en:us', 'es:es', 'pt:pt', 'de:de', 'fr:fr', 'ar:sa', 'ko:kr', 'ru:ru', 'zh:cn', 'ja:jp'].sort(),
    );
  });

  const ja = dictionaries.ja!;
  it('has product copy in Japanese', () => {
    expect(Object.keys(ja).length).toBeGreaterThan(50);
    expect(ja['nav.home']).toBe('ホーム');
  });

  it.each(LOCALE_CODES.filter((c) => c !== 'ja'))('locale %s has every key that ja has, none empty', (code) => {
    const dict = dictionaries[code] ?? {};
    const missing = Object.keys(ja).filter((k) => !(k in dict));
    const empty = Object.entries(dict)
      .filter(([, v]) => typeof v !== 'string' || v.trim() === '')
      .map(([k]) => k);
    expect({ missing, empty }).toEqual({ missing: [], empty: [] });
  });

  it('defines each key in one namespace file only', async () => {
    const files = import.meta.glob<Record<string, string>>('../../src/i18n/locales/*/*.json', { eager: true, import: 'default' });
    const owners = new Map<string, string[]>();
    for (const [path, dict] of Object.entries(files)) {
      const [code, file] = path.split('/').slice(-2);
      for (const key of Object.keys(dict)) owners.set(`${code}:${key}`, [...(owners.get(`${code}:${key}`) ?? []), file!]);
    }
    expect([...owners].filter(([, f]) => f.length > 1)).toEqual([]);
  });

  it('keeps placeholders intact in every translation', () => {
    const placeholders = (s: string) => [...s.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();
    for (const code of LOCALE_CODES) {
      for (const [key, value] of Object.entries(ja)) {
        const other = dictionaries[code]?.[key];
        if (other) expect([code, key, placeholders(other)]).toEqual([code, key, placeholders(value)]);
      }
    }
  });

  it('gives each request its own fixed translator', () => {
    const ja = translatorFor('ja');
    const en = translatorFor('en');
    expect([ja('nav.home'), en('nav.home'), ja('nav.home')]).toEqual(['ホーム', 'Home', 'ホーム']);
    // A key no dictionary has (a field name from input, say) comes back as itself.
    expect(en('field.noSuchField' as MessageKey)).toBe('field.noSuchField');
  });

  it('writes Arabic right to left', () => {
    expect(directionOf('ar')).toBe('rtl');
    expect(directionOf('ja')).toBe('ltr');
  });
});

describe('plural forms', () => {
  const variant = new RegExp(`^(.+)_(${PLURAL_FORMS.join('|')})$`);
  const forms = LOCALE_CODES.flatMap((code) =>
    Object.keys(dictionaries[code] ?? {}).flatMap((key) => {
      const m = key.match(variant);
      return m ? [{ code, key, base: m[1]!, form: m[2]! }] : [];
    }),
  );

  it('are given where the language needs them', () => {
    const en = translatorFor('en');
    expect([en('booking.partyCount', { count: 1 }), en('booking.partyCount', { count: 2 })]).toEqual(['1 person', '2 people']);
    expect([en('discovery.store.stayMinutes', { count: 1 }), en('discovery.store.stayMinutes', { count: 90 })]).toEqual(['1 minute', '90 minutes']);
    expect(translatorFor('ru')('discovery.store.stayMinutes', { count: 2 })).toBe('2 минуты');
    expect(translatorFor('ar')('booking.partyCount', { count: 2 })).toBe('شخصان');
    expect(forms.length).toBeGreaterThan(20);
  });

  it('belong to a key of ja, in a category the language has, with no placeholder ja lacks', () => {
    const ja = dictionaries.ja!;
    const placeholders = (s: string) => [...s.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]!);
    const wrong = forms.filter(({ code, key, base, form }) => {
      const categories = new Intl.PluralRules(code).resolvedOptions().pluralCategories as string[];
      const extra = placeholders(dictionaries[code]![key]!).filter((p) => !placeholders(ja[base] ?? '').includes(p));
      return !(base in ja) || !categories.includes(form) || extra.length > 0;
    });
    expect(wrong).toEqual([]);
  });

  it('read the same in an island (its picked labels) as on the server', () => {
    const keys = [...new Set(forms.map((f) => f.base))] as MessageKey[];
    for (const code of LOCALE_CODES) {
      const server = translatorFor(code);
      const browser = fromDictionary(pick(code, keys), code);
      for (const key of keys) {
        for (const count of [0, 1, 2, 3, 5, 11, 21, 100])
          expect([code, key, count, browser(key, { count, party: 4 })]).toEqual([code, key, count, server(key, { count, party: 4 })]);
      }
    }
  });
});
