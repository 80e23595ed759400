/** A watch's hold as requests carry it: who asks (the watch's owner, or the mailed link's token). */
import type { AstroCookies } from 'astro';
import { TOKEN_MAX } from '../../lib/contract/limits';
import { watchOwner } from './http';
import type { ClaimClient, HoldAsker } from './holds';
import { deviceId } from '../bookingLimits';

/** The hold's own token: `X-Hold-Token` (the API) or `?token=` (the mailed link's page and its form). */
export function holdAsker(locals: { user: { id: number; email: string } | null }, request: Request, cookies?: AstroCookies): HoldAsker {
  const token = request.headers.get('x-hold-token') || new URL(request.url).searchParams.get('token') || '';
  return { owner: watchOwner(locals, request, cookies), token: token && token.length <= TOKEN_MAX ? token : null };
}

/** Who claims, for the booking limits: the client's address and the browser's device id (set when it has none). */
export function claimClient(locals: { clientAddress: string; secure: boolean }, cookies: AstroCookies): ClaimClient {
  return { address: locals.clientAddress, device: deviceId(cookies, locals) };
}
