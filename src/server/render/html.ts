/**
 * Escaping for markup built as one string (src/server/render/): the same rules as Astro's own, so
 * that such markup is byte for byte what the component rendered.
 */
const TEXT = /[&<>'"]/g;
const ENTITY: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', "'": '&#39;', '"': '&quot;' };

/** Text content. */
export const text = (value: string | number): string => String(value).replace(TEXT, (c) => ENTITY[c]!);

/**
 * ` name="value"`, as Astro writes a dynamic attribute: left out when undefined, null or false,
 * bare when true or empty; `&` and `"` escaped.
 */
export function attr(name: string, value: string | number | boolean | null | undefined): string {
  if (value === undefined || value === null || value === false) return '';
  if (value === true || value === '') return ` ${name}`;
  return ` ${name}="${attrValue(value)}"`;
}

/** An attribute's value between double quotes. */
export const attrValue = (value: string | number): string => String(value).replace(/&/g, '&amp;').replace(/"/g, '&quot;');
