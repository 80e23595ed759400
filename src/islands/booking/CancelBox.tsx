/** Cancelling a booking being changed: a button, then a confirmation asked in place that restates the store's cancellation policy. */
import { useState } from 'react';
import type { BookingForm } from './useBookingForm';

export default function CancelBox({ form, headingId, policy }: { form: BookingForm; headingId: string; policy: string }) {
  const { t, busy, cancel } = form;
  const [asking, setAsking] = useState(false);
  return (
    <div className="border-t border-base-300 pt-4">
      {!asking ? (
        <button type="button" className="btn btn-outline btn-error w-full" onClick={() => setAsking(true)}>
          {t('booking.edit.cancel')}
        </button>
      ) : (
        <div role="alertdialog" aria-labelledby={headingId} aria-describedby={`${headingId}-policy`} className="space-y-2">
          <p id={headingId} className="font-medium">
            {t('booking.edit.cancelConfirm')}
          </p>
          <p id={`${headingId}-policy`} className="text-sm">
            <span className="font-medium">{t('booking.summary.policy')}</span> {policy || t('booking.policyNone')}
          </p>
          <div className="flex gap-2">
            <button type="button" className="btn btn-error" onClick={() => void cancel().finally(() => setAsking(false))} disabled={busy} autoFocus>
              {t('booking.edit.cancelYes')}
            </button>
            <button type="button" className="btn btn-ghost" onClick={() => setAsking(false)}>
              {t('booking.edit.cancelNo')}
            </button>
          </div>
        </div>
      )}
    </div>
  );
}
