/**
 * One translated message per invalid field, the same on the server (`translatorFor`) and in an
 * island (the dictionary subset it was given): both run a schema, then `fieldErrors`.
 */
import type * as z from 'zod/mini';

/** A translator: the locale's `translatorFor` on the server, `fromDictionary(labels)` in the browser. */
export type Translate = (key: string, params?: Record<string, unknown>) => string;

/**
 * A translator over a plain dictionary: `{{name}}` interpolation, and with a
 * numeric `count` the language's plural form (`key_one`, `key_few` …) when the dictionary has it.
 * A missing key comes back as itself.
 * @example fromDictionary({ 'p': '{{count}} people', 'p_one': '{{count}} person' }, 'en')('p', { count: 1 }) // '1 person'
 */
export function fromDictionary(dict: Readonly<Record<string, string>>, locale = 'ja'): Translate {
  const plural = new Intl.PluralRules(locale);
  // A listing fills a few hundred messages per page: each message is split at its placeholders
  // once (text, placeholder, name, text, …), each count's plural category looked up once.
  const parsed = new Map<string, string[]>();
  const forms = new Map<number, Intl.LDMLPluralRule>();
  return (key, params = {}) => {
    const count = params.count;
    let form: string | undefined;
    if (typeof count === 'number') {
      let category = forms.get(count);
      if (category === undefined) {
        category = plural.select(count);
        // Counts are party sizes, pages and totals: a few hundred at most are worth remembering.
        if (forms.size < 500) forms.set(count, category);
      }
      form = dict[`${key}_${category}`];
    }
    const text = form ?? dict[key];
    if (text === undefined) return key.replace(PLACEHOLDER, (whole, name: string) => (name in params ? String(params[name]) : whole));
    let parts = parsed.get(text);
    if (!parts) parsed.set(text, (parts = text.split(PLACEHOLDER_PARTS)));
    let out = parts[0]!;
    for (let i = 1; i < parts.length; i += 3) out += (parts[i + 1]! in params ? String(params[parts[i + 1]!]) : parts[i]!) + parts[i + 2]!;
    return out;
  };
}

const PLACEHOLDER = /\{\{\s*(\w+)\s*\}\}/g;
/** The same, capturing the whole placeholder and its name, for String.split. */
const PLACEHOLDER_PARTS = /(\{\{\s*(\w+)\s*\}\})/;

/** A field's label for messages: `field.<name>` when translated, else the name itself; an item of a list (`tag.1`) by the list's. */
function label(t: Translate, path: readonly PropertyKey[]): string {
  const name = path.map(String).join('.');
  const last = path.findLast((p) => typeof p !== 'number');
  const key = `field.${last === undefined ? name : String(last)}`;
  const translated = t(key);
  return translated === key ? name : translated;
}

/** Fields the diner picks rather than types (a start from the list, a date, a seat kind): 選択してください, not 入力. */
export const CHOSEN_FIELDS: ReadonlySet<string> = new Set(['start', 'date', 'seat', 'seat_preference', 'table_kind']);

/** 「…を入力してください」, or 「…を選択してください」 for a field that is picked. */
function required(t: Translate, path: readonly PropertyKey[], field: string): string {
  const last = path.findLast((p) => typeof p !== 'number');
  return t(last !== undefined && CHOSEN_FIELDS.has(String(last)) ? 'validation.choose' : 'validation.required', { field });
}

/** One translated message for a zod issue, naming the field. */
export function issueMessage(t: Translate, issue: z.core.$ZodIssue): string {
  const field = label(t, issue.path);
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined || issue.input === null ? required(t, issue.path, field) : t('validation.invalid', { field });
    case 'too_small':
      if (issue.origin === 'string')
        return Number(issue.minimum) <= 1 ? required(t, issue.path, field) : t('validation.tooShort', { field, min: issue.minimum });
      return t('validation.tooSmall', { field, min: issue.minimum });
    case 'too_big':
      return issue.origin === 'string' ? t('validation.tooLong', { field, max: issue.maximum }) : t('validation.tooBig', { field, max: issue.maximum });
    case 'invalid_format':
      return issue.format === 'email' ? t('validation.email') : t('validation.invalid', { field });
    case 'custom':
      return issue.message?.includes('.') ? t(issue.message, { field }) : t('validation.invalid', { field });
    default:
      return t('validation.invalid', { field });
  }
}

/** Field name (`_` for the whole object) → the message of its first issue. */
export function fieldErrors(t: Translate, issues: readonly z.core.$ZodIssue[]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of issues) fields[issue.path.length ? issue.path.map(String).join('.') : '_'] ??= issueMessage(t, issue);
  return fields;
}
