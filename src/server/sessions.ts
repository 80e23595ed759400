import { createHash, randomBytes } from 'node:crypto';
import { and, eq, lt, ne, sql } from 'drizzle-orm';
import { getDb } from './db/startup';
import type { Db } from './db/types';
import { sessions } from './db/schema';
import { cookieOptions } from './http/cookies';

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

/**
 * Starts a session for a user: a fresh token every time (never reused, so a token seen before
 * sign-in is worthless after it), stored only as its hash, valid for one day.
 */
export async function createSession(db: Db, userId: number, userAgent?: string | null): Promise<{ token: string; sessionId: string; expiresAt: Date }> {
  const token = newToken();
  const sessionId = hashToken(token);
  const createdAt = new Date();
  const expiresAt = new Date(createdAt.getTime() + SESSION_TTL_MS);
  await db.insert(sessions).values({ id: sessionId, userId, createdAt, lastSeenAt: createdAt, expiresAt, userAgent: userAgent?.slice(0, 300) ?? null });
  // Housekeeping while we are here: this user's dead sessions.
  await db.delete(sessions).where(and(eq(sessions.userId, userId), lt(sessions.expiresAt, new Date())));
  return { token, sessionId, expiresAt };
}

/** Ends one session (by its id, the token hash). Unknown ids are fine. */
export async function revokeSession(db: Db, sessionId: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, sessionId));
}

/** Ends every session of a user, except `keep` (the one making the request) when given. */
export async function revokeUserSessions(db: Db, userId: number, keep?: string | null): Promise<void> {
  await db.delete(sessions).where(keep ? and(eq(sessions.userId, userId), ne(sessions.id, keep)) : eq(sessions.userId, userId));
}

/** The session cookie's options: the cookie rule of src/server/http/cookies.ts, until the session expires. */
export function sessionCookieOptions(locals: { secure: boolean }, expires: Date) {
  return cookieOptions(locals, { expires });
}
