/**
 * Keeps the booking form's day, party and start in the address bar, so that a reload or coming
 * back to the page opens the form with the same choice (the server reads it: linkedChoice).
 */
import { useEffect } from 'react';
import type { FormValues } from './types';

export function useChoiceInUrl(enabled: boolean, { date, party, start }: Pick<FormValues, 'date' | 'party' | 'start'>): void {
  useEffect(() => {
    if (!enabled) return;
    const query = new URLSearchParams({ date, party: String(party), ...(start ? { start } : {}) });
    window.history.replaceState(window.history.state, '', `${window.location.pathname}?${query}`);
  }, [enabled, date, party, start]);
}
