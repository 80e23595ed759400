import { normaliseKana } from './validation';

/** `¥3,000`: yen have no minor unit. */
export function formatYen(amount: number): string {
  return `¥${groupDigits(amount)}`;
}

// One formatter: `toLocaleString` builds one per call, which a listing did a hundred times a page.
const grouping = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** A whole number with thousands separators, as Japanese and English write it: `12,000`. */
export function groupDigits(n: number): string {
  return grouping.format(Math.round(n));
}

/** `¥3,000〜¥5,000` */
export function formatYenRange(min: number, max: number): string {
  return min === max ? formatYen(min) : `${formatYen(min)}〜${formatYen(max)}`;
}

/**
 * The reading to print under a name, or null when it would only repeat the name: a name already
 * written in katakana (ソウルポチャ) needs no kana line. Spaces, middle dots and hiragana vs
 * katakana do not count as a difference.
 * @example kanaReading('焼肉 たけ', 'ヤキニク タケ') // 'ヤキニク タケ'
 * @example kanaReading('ソウルポチャ', 'ソウルポチャ') // null
 */
export function kanaReading(name: string, kana: string): string | null {
  const bare = (s: string) => normaliseKana(s).replace(/[\s・]/g, '');
  return kana.trim() && bare(name) !== bare(kana) ? kana : null;
}
