import type { AstroCookies } from 'astro';
import { encodeFlash, FLASH_COOKIE, type Flash } from '../../lib/flash';

/** Leaves a message for the next page the browser opens (read once by the middleware). */
export function setFlash(cookies: AstroCookies, flash: Flash): void {
  cookies.set(FLASH_COOKIE, encodeFlash(flash), { path: '/', httpOnly: true, sameSite: 'lax', maxAge: 60 });
}
