/**
 * The store host's choice of store: an account may work for several of its company's stores, and
 * its pages show one at a time, chosen in the switcher and kept in a cookie of the store host.
 */
import type { AstroCookies } from 'astro';
import { ApiError, notFound } from '../http/api';
import { getDb } from '../db/startup';
import type { Db } from '../db/types';
import { parseId } from '../../lib/validation';
import { staffOf, storeOf, type StaffScope } from './access';

/** The switcher's cookie (host-only on the store host, like every cookie; a store id, checked on every read). */
export const STORE_CHOICE_COOKIE = 'sugu_store_choice';

/**
 * The store a page is about: `?store=` when given (404 when it is not one of the account's, as
 * the store API answers), else the one kept by the switcher while the account still works there,
 * else the account's first.
 */
export function chosenStore(scope: StaffScope, asked: string | null, kept: string | undefined): number {
  if (asked !== null) {
    const id = parseId(asked);
    if (id === null) throw notFound();
    return storeOf(scope, id);
  }
  const id = parseId(kept ?? '');
  return id !== null && scope.storeIds.includes(id) ? id : storeOf(scope, undefined);
}

/**
 * The preamble of every store page that works on one store: the database, the signed-in account's
 * staff scope (null for an account that works for no store) and the chosen store (`asked`, by
 * default the address's `?store=`, else the switcher's). `storeId` is null, and the page not found,
 * when the account has no store or `asked` is not one of its stores.
 */
export async function pageStore(
  page: { locals: App.Locals; url: URL; cookies: AstroCookies },
  asked: string | null = page.url.searchParams.get('store'),
): Promise<{ db: Db; scope: StaffScope | null; storeId: number | null; asked: string | null }> {
  const db = await getDb();
  const user = page.locals.user;
  const scope = user ? await staffOf(db, user.id) : null;
  let storeId: number | null = null;
  if (scope) {
    try {
      storeId = chosenStore(scope, asked, page.cookies.get(STORE_CHOICE_COOKIE)?.value);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
    }
  }
  return { db, scope, storeId, asked };
}
