import { FALLBACK_LOCALE, isLocale, type Locale } from './locales.ts';

export interface LocaleSources {
  /** The value of the locale cookie, set by the locale switcher. */
  cookie?: string | null;
  /** The Accept-Language header. */
  acceptLanguage?: string | null;
}

/**
 * The user's choice first, then the browser's first language (the part before the dash) when we
 * have it, else English (or `fallback`: the store host's is Japanese). A failure while reading is
 * logged and the fallback stays (spec section 4).
 * @example detectLocale({ acceptLanguage: 'ja-JP,ja;q=0.9' }) // 'ja'
 */
export function detectLocale(sources: LocaleSources, log: (e: unknown) => void = console.error, fallback: Locale = FALLBACK_LOCALE): Locale {
  try {
    if (isLocale(sources.cookie)) return sources.cookie;
    const header = sources.acceptLanguage ?? '';
    const ranked = header
      .split(',')
      .map((part, index) => {
        const [tag = '', ...params] = part.trim().split(';');
        const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
        const weight = q ? Number(q.slice(2)) : 1;
        return { base: tag.split('-')[0]!.toLowerCase(), weight: Number.isFinite(weight) ? weight : 0, index };
      })
      .filter((l) => l.base && l.weight > 0)
      .sort((a, b) => b.weight - a.weight || a.index - b.index);
    const first = ranked[0];
    return first && isLocale(first.base) ? first.base : fallback;
  } catch (error) {
    log(error);
    return fallback;
  }
}
