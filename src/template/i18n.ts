import type { T } from '../i18n';

/**
 * The demo template builds many of its keys from its own data (menu entries, table columns, demo
 * names), which the typed translator cannot check when compiling; tests/unit/i18n-keys.test.ts
 * checks them against the dictionaries instead. Product code uses the typed `t`.
 */
export type TemplateT = (key: string, params?: Record<string, unknown>) => string;

export const templateT = (t: T): TemplateT => t as unknown as TemplateT;
