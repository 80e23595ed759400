export type ToastKind = 'normal' | 'success' | 'error';

/** A one-time message carried across a redirect and shown as a toast on the next page. */
export interface Flash {
  kind: ToastKind;
  message: string;
}

export const FLASH_COOKIE = 'flash';
/** Our own messages are short; a longer one in the cookie was not written by us. */
const FLASH_MESSAGE_MAX = 500;

export function encodeFlash(flash: Flash): string {
  return Buffer.from(JSON.stringify(flash), 'utf8').toString('base64url');
}

export function decodeFlash(value: string | undefined): Flash | null {
  if (!value) return null;
  try {
    const parsed = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as Partial<Flash>;
    if (!parsed || typeof parsed.message !== 'string' || parsed.message.length > FLASH_MESSAGE_MAX) return null;
    const kind = parsed.kind === 'success' || parsed.kind === 'error' ? parsed.kind : 'normal';
    return { kind, message: parsed.message };
  } catch {
    return null;
  }
}
