import { afterEach, describe, expect, it } from 'vitest';
import { $toasts, dismissToast, showToast, toastText, TOAST_TIMEOUTS } from '../../src/state/toasts';

afterEach(() => $toasts.set([]));

describe('toasts (spec sections 4, 8, 9)', () => {
  it('keeps normal and success 3 s, errors 10 s', () => {
    expect(TOAST_TIMEOUTS).toEqual({ normal: 3000, success: 3000, error: 10000 });
    expect(showToast({ message: 'a' }).timeout).toBe(3000);
    expect(showToast({ kind: 'success', message: 'b' }).timeout).toBe(3000);
    expect(showToast({ kind: 'error', message: 'c' }).timeout).toBe(10000);
  });

  it('shows an error as the message plus the error message, Failed! when there is neither', () => {
    expect(toastText({ kind: 'error', message: '予約できませんでした', error: new Error('slot_taken') }, 'Failed!')).toBe('予約できませんでした slot_taken');
    expect(toastText({ kind: 'error' }, 'Failed!')).toBe('Failed!');
    expect(showToast({ kind: 'error' }).message).toBe('Failed!');
  });

  it('keeps a toast with timeout 0 until dismissed', () => {
    const t = showToast({ message: 'stay', timeout: 0 });
    expect(t.timeout).toBe(0);
    expect($toasts.get()).toHaveLength(1);
    dismissToast(t.id);
    expect($toasts.get()).toHaveLength(0);
  });
});
