/**
 * The platform's own admins: an account with the `admin` role and no company. They create
 * companies and their first store; the store pages and the store API are not theirs.
 */
import { ApiError, unauthorized } from '../http/api';
import type { SessionUser } from '../sessions';

export interface AdminScope {
  userId: number;
  email: string;
}

/** The caller as an admin: 401 when signed out, 403 for any other account. */
export function adminScope(user: SessionUser | null): AdminScope {
  if (!user) throw unauthorized();
  if (user.role !== 'admin') throw new ApiError(403, 'forbidden', 'api.error.adminOnly');
  return { userId: user.id, email: user.email };
}

export const isAdmin = (user: SessionUser | null): boolean => user?.role === 'admin';
