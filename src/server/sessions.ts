/**
 * Signed-in sessions: created at sign-in, found from a cookie or a Bearer token, renewed, revoked.
 *
 * One module: a session's token, its row and its cookie are one thing; the exports are its small
 * operations and the cookie names.
 */
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, lt, ne, sql } from 'drizzle-orm';
import { getDb } from './db/startup';
import type { Db } from './db/types';
import { sessions } from './db/schema';
import { cookieOptions } from './http/cookies';
import type { AstroCookies } from 'astro';
import { TOKEN_MAX } from '../lib/contract/limits';
import type { UserRole } from '../lib/contract/enums';

/** The spec names the session cookie `example` and gives it one day (section 9): a day since last use. */
export const SESSION_COOKIE = 'example';
/**
 * The store host's own session cookie (host-only there, as every cookie Sugu sets): a diner's
 * cookie is never read on the store host, nor this one on the diner site.
 */
export const STORE_SESSION_COOKIE = 'sugu_store';

/** Which of the two sites a request is on (src/middleware.ts decides it from the Host). */
export type Site = 'diner' | 'store';

/** The session cookie of the site a request is on. */
export function sessionCookieName(site: Site | undefined): string {
  return site === 'store' ? STORE_SESSION_COOKIE : SESSION_COOKIE;
}
export const SESSION_TTL_MS = 24 * 60 * 60 * 1000;
/** A session in use is renewed (last seen now, a day from now) at most this often, not on every request. */
export const SESSION_RENEW_MS = 60 * 60 * 1000;

export interface SessionUser {
  id: number;
  email: string;
  name: string;
  /** Staff reach the store API (src/server/staff/access.ts); diners never do. */
  role: UserRole;
}

/** 256 random bits, URL-safe. Only its hash is ever stored. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export interface ResolvedSession {
  user: SessionUser;
  sessionId: string;
  /** Set when this request renewed the session: the cookie must now last until then. */
  renewedUntil: Date | null;
}

/**
 * The user behind a session token, or null when the token is unknown or expired. Sliding expiry:
 * a session seen more than SESSION_RENEW_MS ago is renewed for another day from now.
 */
export async function resolveSession(token: string | undefined | null, now = new Date()): Promise<ResolvedSession | null> {
  if (!token || token.length > TOKEN_MAX) return null;
  const db = await getDb();
  const id = hashToken(token);
  const rows = await db.execute<{ id: number; email: string; name: string; role: UserRole; last_seen_at: string }>(sql`
    select u.id, u.email, u.name, u.role, s.last_seen_at
    from sessions s join users u on u.id = s.user_id
    where s.id = ${id} and s.expires_at > ${now}`);
  const row = rows[0];
  if (!row) return null;
  let renewedUntil: Date | null = null;
  if (now.getTime() - new Date(row.last_seen_at).getTime() >= SESSION_RENEW_MS) {
    renewedUntil = new Date(now.getTime() + SESSION_TTL_MS);
    await db.update(sessions).set({ lastSeenAt: now, expiresAt: renewedUntil }).where(eq(sessions.id, id));
  }
  return { user: { id: Number(row.id), email: row.email, name: row.name, role: row.role }, sessionId: id, renewedUntil };
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

/** Gives the browser the session cookie (the cookie rule of src/server/http/cookies.ts) until the session expires. */
export function setSessionCookie(cookies: AstroCookies, locals: { secure: boolean; site?: Site }, token: string, expires: Date): void {
  cookies.set(sessionCookieName(locals.site), token, cookieOptions(locals, { expires }));
}

/** Takes the session cookie away (signed out, left, or its session is gone). */
export function clearSessionCookie(cookies: AstroCookies, locals: { secure: boolean; site?: Site }): void {
  cookies.delete(sessionCookieName(locals.site), cookieOptions(locals));
}
