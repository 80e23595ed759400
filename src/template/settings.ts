import * as z from 'zod/mini';
import { CURRENCIES, DEFAULT_CURRENCY } from './filters';

/**
 * The settings drawer's choices (spec section 2) besides the theme, which reuses the product's
 * `theme` cookie. They live in one cookie so the server renders them: no flash of the wrong layout.
 */
export const SETTINGS_COOKIE = 'settings';
export const SETTINGS_MAX_AGE = 60 * 60 * 24 * 365;

export const PRIMARY_COLOURS = {
  blue: '#0096c7',
  indigo: '#5c6bc0',
  teal: '#26a69a',
  green: '#66bb6a',
  orange: '#ffa726',
  pink: '#ec407a',
} as const;
export type PrimaryColour = keyof typeof PRIMARY_COLOURS;

export const DATE_FORMATS = ['LL', 'L', 'll', 'LLLL'] as const;
export type DateFormat = (typeof DATE_FORMATS)[number];

const primaryKeys = Object.keys(PRIMARY_COLOURS) as [PrimaryColour, ...PrimaryColour[]];
const currencyKeys = Object.keys(CURRENCIES) as [keyof typeof CURRENCIES, ...(keyof typeof CURRENCIES)[]];

/** Each field falls back on its own, so one stale value never resets the others. */
export const settingsSchema = z.object({
  toolbarDetached: z.catch(z.boolean(), false),
  contentBoxed: z.catch(z.boolean(), false),
  rtl: z.catch(z.boolean(), false),
  primary: z.catch(z.enum(primaryKeys), 'blue'),
  dateFormat: z.catch(z.enum(DATE_FORMATS), 'LL'),
  currency: z.catch(z.enum(currencyKeys), DEFAULT_CURRENCY),
});
export type TemplateSettings = z.infer<typeof settingsSchema>;

export const DEFAULT_SETTINGS: TemplateSettings = settingsSchema.parse({});

/** The cookie's value, whatever state it is in: missing, not JSON or half valid. */
export function parseSettings(raw: string | undefined | null): TemplateSettings {
  if (!raw) return DEFAULT_SETTINGS;
  try {
    const data: unknown = JSON.parse(raw);
    return settingsSchema.parse(typeof data === 'object' && data !== null ? data : {});
  } catch {
    return DEFAULT_SETTINGS;
  }
}
