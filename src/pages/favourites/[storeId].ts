import type { APIRoute } from 'astro';
import { getDb } from '../../server/db/startup';
import { addFavourite, removeFavourite } from '../../server/favourites';
import { setFlash } from '../../server/http/flash';
import { siteOrigins } from '../../server/http/origin';
import { parseId } from '../../lib/validation';
import { SIGNIN_PATH, safeNext } from '../../lib/routes';
import { storePath } from '../../lib/contract/paths';

/**
 * The heart's form without JavaScript (src/components/FavouriteToggle.astro): `favourite=1` adds,
 * `0` removes, then back to the page the heart was on: its Referer, since the form is also inside
 * listings fetched as fragments and cannot name its own page. A guest goes to sign in first.
 */
export const POST: APIRoute = async ({ request, params, locals, cookies, redirect, url }) => {
  const storeId = parseId(params.storeId);
  const from = sitePath(request.headers.get('referer'), siteOrigins(url));
  const storePage = storeId === null ? undefined : storePath(storeId);
  if (!locals.user) {
    // The sign-in page says why it opened, and signing in comes back here (next).
    setFlash(cookies, locals, { kind: 'normal', message: locals.t('discovery.favourite.signInWhy') });
    return redirect(`${SIGNIN_PATH}?next=${encodeURIComponent(safeNext(from ?? storePage))}`, 303);
  }
  const form = await request.formData().catch(() => null);
  const wanted = form?.get('favourite');
  const db = await getDb();
  const done =
    storeId !== null &&
    (wanted === '1' || wanted === '0') &&
    (wanted === '1' ? await addFavourite(db, locals.user.id, storeId) : await removeFavourite(db, locals.user.id, storeId));
  const { t } = locals;
  setFlash(
    cookies,
    locals,
    done
      ? { kind: 'success', message: t(wanted === '1' ? 'discovery.favourite.added' : 'discovery.favourite.removed') }
      : { kind: 'error', message: t('discovery.favourite.failed') },
  );
  return redirect(safeNext(from ?? (done ? storePage : undefined)), 303);
};

/** The path of a Referer on this site, or undefined. */
function sitePath(referer: string | null, origins: readonly string[]): string | undefined {
  if (!referer) return undefined;
  try {
    const from = new URL(referer);
    return origins.includes(from.origin) ? from.pathname + from.search : undefined;
  } catch {
    return undefined;
  }
}
