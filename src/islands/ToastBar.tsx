import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import { $toasts, dismissToast, showToast, type Toast } from '../stores/toasts';
import type { Flash } from '../lib/flash';

interface Props {
  /** A one-time message left by the previous request (a redirect's flash). */
  flash: Flash | null;
  labels: { region: string; close: string; failed: string };
}

const STYLES: Record<Toast['kind'], string> = {
  normal: 'bg-black text-white ring-1 ring-white/20',
  success: 'bg-success text-success-content',
  error: 'bg-error text-error-content',
};

function ToastItem({ toast, closeLabel }: { toast: Toast; closeLabel: string }) {
  useEffect(() => {
    if (toast.timeout <= 0) return;
    const timer = setTimeout(() => dismissToast(toast.id), toast.timeout);
    return () => clearTimeout(timer);
  }, [toast.id, toast.timeout]);

  return (
    <div
      role={toast.kind === 'error' ? 'alert' : 'status'}
      data-kind={toast.kind}
      data-timeout={toast.timeout}
      className={`pointer-events-auto flex items-center gap-3 rounded-box px-4 py-3 text-sm shadow-lg ${STYLES[toast.kind]}`}
    >
      <p className="flex-1 whitespace-pre-line">{toast.message}</p>
      {toast.timeout === 0 && (
        <button type="button" className="btn btn-ghost btn-sm min-h-9 text-current" onClick={() => dismissToast(toast.id)}>
          {closeLabel}
        </button>
      )}
    </div>
  );
}

export default function ToastBar({ flash, labels }: Props) {
  const toasts = useStore($toasts);

  useEffect(() => {
    if (flash) showToast({ kind: flash.kind, message: flash.message }, labels.failed);
    // Anything that failed before this island hydrated (see islandWatch) is waiting in the window.
    const pending = (window as { __suguPendingToasts?: { kind: Toast['kind']; message: string }[] }).__suguPendingToasts ?? [];
    for (const p of pending.splice(0)) showToast(p, labels.failed);
    const onToast = (e: Event) => showToast((e as CustomEvent).detail, labels.failed);
    window.addEventListener('sugu:toast', onToast);
    return () => window.removeEventListener('sugu:toast', onToast);
  }, [flash, labels.failed]);

  return (
    <section aria-label={labels.region} className="pointer-events-none fixed inset-x-0 bottom-20 z-50 mx-auto flex max-w-md flex-col gap-2 px-3" data-hydrated="true">
      {toasts.map((t) => (
        <ToastItem key={t.id} toast={t} closeLabel={labels.close} />
      ))}
    </section>
  );
}
