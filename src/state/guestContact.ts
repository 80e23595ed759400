/**
 * A guest's contact details, kept on this device only when the guest ticks the box, so that next
 * time the booking form is filled in and the guest confirms in one tap. Only what the guest typed
 * into the form is kept: never a booking's edit token (that stays in an HttpOnly cookie).
 */
const KEY = 'guestContact';

export interface SavedContact {
  name: string;
  name_kana: string;
  phone: string;
  email: string;
}

const FIELDS = ['name', 'name_kana', 'phone', 'email'] as const;

/** The saved details, or null (none saved, storage blocked, or something unreadable). */
export function loadGuestContact(): SavedContact | null {
  try {
    const raw = JSON.parse(localStorage.getItem(KEY) ?? 'null') as Record<string, unknown> | null;
    if (!raw || !FIELDS.every((f) => typeof raw[f] === 'string')) return null;
    return Object.fromEntries(FIELDS.map((f) => [f, raw[f]])) as unknown as SavedContact;
  } catch {
    return null;
  }
}

export function saveGuestContact(contact: SavedContact): void {
  try {
    localStorage.setItem(KEY, JSON.stringify(Object.fromEntries(FIELDS.map((f) => [f, contact[f]]))));
  } catch {
    /* storage full or blocked: the guest types the details next time */
  }
}

export function forgetGuestContact(): void {
  try {
    localStorage.removeItem(KEY);
  } catch {
    /* nothing kept */
  }
}
