/** A watch's hold as requests carry it: who asks (the watch's owner, or the mailed link's token). */
import type { AstroCookies } from 'astro';
import { TOKEN_MAX } from '../../lib/contract/limits';
import { watchOwner } from './http';
import type { HoldAsker } from './holds';

/** The hold's own token: `X-Hold-Token` (the API) or `?token=` (the mailed link's page and its form). */
export function holdAsker(locals: { user: { id: number; email: string } | null }, request: Request, cookies?: AstroCookies): HoldAsker {
  const token = request.headers.get('x-hold-token') || new URL(request.url).searchParams.get('token') || '';
  return { owner: watchOwner(locals, request, cookies), token: token && token.length <= TOKEN_MAX ? token : null };
}
