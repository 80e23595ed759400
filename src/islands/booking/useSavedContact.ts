/**
 * A returning guest's contact details, saved on this device when they asked (src/state/guestContact.ts):
 * filled in once the island runs (the server cannot know them). With a start already chosen and the
 * details still valid, the confirmation opens at once, so the guest books with one more tap.
 */
import { useEffect, useState } from 'react';
import { loadGuestContact } from '../../state/guestContact';
import type { Contact } from './types';

export function useSavedContact(enabled: boolean, initial: boolean, fill: (contact: Contact) => void): [boolean, (on: boolean) => void] {
  const [remember, setRemember] = useState(initial);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the saved contact fills the form once, when the island starts.
  useEffect(() => {
    const saved = enabled ? loadGuestContact() : null;
    if (!saved) return;
    setRemember(true);
    fill(saved);
  }, []);
  return [remember, setRemember];
}
