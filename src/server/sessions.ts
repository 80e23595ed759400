import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { getDb } from './db/client';

/** The spec names the session cookie `example` and gives it one day (section 9). */
export const SESSION_COOKIE = 'example';
export const SESSION_TTL_MS = 24 * 60 * 60 * 1000;

export interface SessionUser {
  id: number;
  email: string;
  name: string;
}

/** 256 random bits, URL-safe. Only its hash is ever stored. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The user behind a session token, or null when the token is unknown or expired. */
export async function resolveSession(token: string | undefined | null): Promise<{ user: SessionUser; sessionId: string } | null> {
  if (!token || token.length > 200) return null;
  const db = await getDb();
  const id = hashToken(token);
  const rows = await db.execute<{ id: number; email: string; name: string }>(sql`
    select u.id, u.email, u.name
    from sessions s join users u on u.id = s.user_id
    where s.id = ${id} and s.expires_at > now()`);
  const row = rows[0];
  return row ? { user: { id: Number(row.id), email: row.email, name: row.name }, sessionId: id } : null;
}
