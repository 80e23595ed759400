import { map } from 'nanostores';
import { DEFAULT_SETTINGS, SETTINGS_COOKIE, SETTINGS_MAX_AGE, type TemplateSettings } from './settings';

export type Theme = 'light' | 'dark';

/** The template's settings drawer state; the server's cookie value seeds it. */
export const $settings = map<TemplateSettings & { theme: Theme }>({ ...DEFAULT_SETTINGS, theme: 'light' });

/** The server's cookie rule (src/server/http/cookies.ts) as the browser sees it: Secure when the page came over https. */
function writeCookie(name: string, value: string): void {
  const secure = location.protocol === 'https:' ? '; secure' : '';
  document.cookie = `${name}=${encodeURIComponent(value)}; path=/; max-age=${SETTINGS_MAX_AGE}; samesite=lax${secure}`;
}

export function seedSettings(initial: TemplateSettings & { theme: Theme }): void {
  $settings.set(initial);
}

/** Changes one setting and persists it where the server reads it on the next request. */
export function changeSetting<K extends keyof (TemplateSettings & { theme: Theme })>(key: K, value: (TemplateSettings & { theme: Theme })[K]): void {
  // nanostores' setKey cannot relate K to the map's value type.
  $settings.setKey(key, value as never);
  const { theme, ...rest } = $settings.get();
  // The theme is the product's own cookie (read by middleware into data-theme on <html>).
  if (key === 'theme') writeCookie('theme', theme);
  else writeCookie(SETTINGS_COOKIE, JSON.stringify(rest));
}
