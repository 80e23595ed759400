/**
 * Keeps the booking form's day, party, start and seat kind in the address bar, so that a reload or
 * coming back to the page opens the form with the same choice (the server reads it: linkedForm).
 */
import { useEffect } from 'react';
import type { FormValues } from './types';

export function useChoiceInUrl(enabled: boolean, { date, party, start, seat }: Pick<FormValues, 'date' | 'party' | 'start' | 'seat'>): void {
  useEffect(() => {
    if (!enabled) return;
    const query = new URLSearchParams({ date, party: String(party), ...(start ? { start } : {}), ...(seat ? { seat } : {}) });
    window.history.replaceState(window.history.state, '', `${window.location.pathname}?${query}`);
  }, [enabled, date, party, start, seat]);
}
