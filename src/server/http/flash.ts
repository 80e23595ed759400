import type { AstroCookies } from 'astro';
import { encodeFlash, FLASH_COOKIE, type Flash } from '../../lib/flash';
import { cookieOptions } from './cookies';

/** Leaves a message for the next page the browser opens (read once by the middleware). */
export function setFlash(cookies: AstroCookies, locals: { secure: boolean }, flash: Flash): void {
  cookies.set(FLASH_COOKIE, encodeFlash(flash), cookieOptions(locals, { maxAge: 60 }));
}
