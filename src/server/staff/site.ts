/**
 * The store host's choice of store: an account may work for several of its company's stores, and
 * its pages show one at a time, chosen in the switcher and kept in a cookie of the store host.
 */
import { notFound } from '../http/api';
import { parseId } from '../../lib/validation';
import { storeOf, type StaffScope } from './access';

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
