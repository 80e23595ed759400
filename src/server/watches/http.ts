/** Watches as the API speaks them: who owns a request's watches, and a watch's JSON. */
import { toTokyoIso } from '../../lib/datetime';
import { TOKEN_MAX } from '../../lib/contract/limits';
import type { Owner, WatchRow } from './service';

/** The signed-in diner, or the device that made a guest's watches (its token in `X-Watch-Token`). */
export function watchOwner(locals: { user: { id: number; email: string } | null }, request: Request): Owner | null {
  if (locals.user) return { kind: 'user', userId: locals.user.id, email: locals.user.email };
  const token = request.headers.get('x-watch-token') ?? '';
  return token && token.length <= TOKEN_MAX ? { kind: 'device', token } : null;
}

export function watchJson(w: WatchRow) {
  return {
    id: w.id,
    store_id: w.storeId,
    area_id: w.areaId,
    genre: w.genre,
    keyword: w.keyword,
    party_size: w.partySize,
    from: toTokyoIso(w.startsFrom),
    until: toTokyoIso(w.endsAt),
    confirmed: w.confirmedAt !== null,
  };
}
