import { atom } from 'nanostores';
import type { ToastKind } from '../lib/flash';

export interface Toast {
  id: number;
  kind: ToastKind;
  message: string;
  /** Milliseconds; 0 keeps the toast until it is closed. */
  timeout: number;
  /** A one-tap action (a watch alert's booking link). */
  link?: { href: string; label: string };
}

/** Spec section 9: normal and success stay 3 s, errors 10 s. */
export const TOAST_TIMEOUTS: Record<ToastKind, number> = { normal: 3000, success: 3000, error: 10000 };

export const $toasts = atom<Toast[]>([]);

let nextId = 1;

export interface ToastInput {
  kind?: ToastKind;
  message?: string;
  /** For errors: its message is shown after the toast's own. */
  error?: unknown;
  timeout?: number;
  link?: Toast['link'];
}

/** Text of an error toast: the message plus the error's message; `fallback` (Failed!) when there is neither. */
export function toastText(input: ToastInput, fallback: string): string {
  const errorText = input.error instanceof Error ? input.error.message : typeof input.error === 'string' ? input.error : '';
  const parts = [input.message, errorText].filter((p): p is string => Boolean(p?.trim()));
  if (input.kind === 'error') return parts.length ? parts.join(' ') : fallback;
  return parts.join(' ');
}

export function showToast(input: ToastInput, fallback = 'Failed!'): Toast {
  const kind = input.kind ?? 'normal';
  const toast: Toast = {
    id: nextId++,
    kind,
    message: toastText({ ...input, kind }, fallback),
    timeout: input.timeout ?? TOAST_TIMEOUTS[kind],
    ...(input.link ? { link: input.link } : {}),
  };
  $toasts.set([...$toasts.get(), toast]);
  return toast;
}

export function dismissToast(id: number): void {
  $toasts.set($toasts.get().filter((t) => t.id !== id));
}
