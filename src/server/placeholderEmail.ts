/**
 * An account made by a provider that vouched for no address (「LINEでログイン」 without a verified
 * e-mail) has none. The users table requires one (unique, and every mail path takes it), so such an
 * account stores an address no one can receive mail at (the reserved .invalid domain, RFC 2606)
 * that is never shown: the diner sees no address until they add one on the account page and verify
 * it. Being unverified, nothing is ever mailed to it (src/server/mail/outbox.ts holds such mail).
 */
import { newToken } from './sessions';

/** Also in migration 0027 (SQL cannot import it). */
const DOMAIN = 'no-email.invalid';

export function placeholderEmail(provider: string): string {
  return `${provider}-${newToken().slice(0, 16).toLowerCase()}@${DOMAIN}`;
}

export function isPlaceholderEmail(email: string): boolean {
  return email.toLowerCase().endsWith(`@${DOMAIN}`);
}

/** The address as the diner sees it: empty for none. */
export function shownEmail(email: string): string {
  return isPlaceholderEmail(email) ? '' : email;
}
