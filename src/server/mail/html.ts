/**
 * The HTML part of a mail, made from its plain text so the two always say the same: paragraphs
 * at blank lines, line breaks kept, every http(s) address a link. The language and direction of
 * the diner's locale are declared, so mail clients pick the right fonts (and Arabic reads right
 * to left).
 */
import { RTL_LOCALES, type Locale } from '../../i18n/locales';
import { jsonLdScript } from '../structuredData';

const LINK = /https?:\/\/[^\s<>"']+/g;

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function line(text: string): string {
  let out = '';
  let last = 0;
  for (const m of text.matchAll(LINK)) {
    out += `${escape(text.slice(last, m.index))}<a href="${escape(m[0])}" style="color:#b91c1c">${escape(m[0])}</a>`;
    last = m.index + m[0].length;
  }
  return out + escape(text.slice(last));
}

/**
 * With `markup`, its JSON-LD goes in too (src/server/structuredData.ts).
 * @example mailHtml({ subject: '件名', text: '本文\nhttps://sugu.jp/x', locale: 'ja' })
 * // '<!doctype html><html lang="ja" dir="ltr">…<a href="https://sugu.jp/x"…'
 */
export function mailHtml(mail: { subject: string; text: string; locale: string; markup?: object }): string {
  const dir = RTL_LOCALES.includes(mail.locale as Locale) ? 'rtl' : 'ltr';
  const paragraphs = mail.text
    .trim()
    .split(/\n\s*\n/)
    .map((p) => `<p style="margin:0 0 1em">${p.split('\n').map(line).join('<br>')}</p>`)
    .join('\n');
  return [
    '<!doctype html>',
    `<html lang="${escape(mail.locale)}" dir="${dir}">`,
    `<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escape(mail.subject)}</title></head>`,
    "<body style=\"margin:0;padding:16px;font-family:system-ui,'Hiragino Sans','Noto Sans JP',sans-serif;line-height:1.7;color:#1f2937;background:#fff\">",
    // schema.org markup (a reservation) for mail apps that show it as a card; at the top of the
    // body, where Gmail reads it.
    ...(mail.markup ? [jsonLdScript(mail.markup)] : []),
    '<p style="margin:0 0 1em;font-weight:700;color:#b91c1c">すぐ予約</p>',
    paragraphs,
    '</body></html>',
  ].join('\n');
}
