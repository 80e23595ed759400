import { persistentMap } from '@nanostores/persistent';

/**
 * The diner's current search, kept across pages and reloads (session storage semantics are not
 * enough: the home tab, not the browser, decides when it ends). Spec section 2.
 */
export type SearchSession = {
  page?: string;
  searchData?: string;
  areaName?: string;
  keyword?: string;
};

export const $searchSession = persistentMap<SearchSession>('search:', {});

export function clearSearchSession(): void {
  for (const key of ['page', 'searchData', 'areaName', 'keyword'] as const) $searchSession.setKey(key, undefined);
}
