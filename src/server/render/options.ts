/**
 * A select's options as one string, kept by what they show. A listing's search form offers about
 * eighty options (areas, genres, party sizes, sorts, budgets twice, seat kinds); as component
 * expressions, each a few stream chunks, they were a twentieth of /home's rendering.
 *
 * The caller names the list by everything its labels depend on (the language, and the areas when
 * they are offered); with the chosen value that is the whole key, and `build` runs only on a miss.
 */
import { attr, attrValue, text } from './html';
import { BoundedCache } from '../../lib/boundedCache';

export interface Option {
  value: string;
  label: string;
}

/** A few hundred lists: each list of each language, by its chosen value. */
export const keptOptions = new BoundedCache<string, string>(2_000);

export function optionsHtml(list: string, selected: string, build: () => readonly Option[]): string {
  const key = `${list}\u0000${selected}`;
  let html = keptOptions.get(key);
  if (html === undefined) {
    html = build()
      // The markup Astro wrote for these options: `value=""` spelled out, and the empty choice (first,
      // so chosen by default) left unmarked.
      .map((o) => `<option value="${attrValue(o.value)}"${attr('selected', o.value !== '' && o.value === selected)}>${text(o.label)}</option>`)
      .join('');
    keptOptions.set(key, html);
  }
  return html;
}
