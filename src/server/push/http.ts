/** Push subscriptions as requests carry them: the signed-in diner, or the guest device of the watches. */
import type { AstroCookies } from 'astro';
import { deviceWatchToken } from '../watches/http';
import type { PushOwner } from './service';

export function pushOwner(locals: { user: { id: number } | null }, request: Request, cookies?: AstroCookies): PushOwner | null {
  if (locals.user) return { kind: 'user', userId: locals.user.id };
  const token = deviceWatchToken(request, cookies);
  return token ? { kind: 'device', token } : null;
}
