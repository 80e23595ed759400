/**
 * Cancelling a booking being changed: a button, then a confirmation asked in place that restates the
 * store's cancellation policy. Both are forms: without JavaScript they post to the page, which opens
 * the confirmation (`asked`) and then cancels.
 */
import { useState } from 'react';
import type { BookingForm } from './useBookingForm';

export default function CancelBox({ form, headingId, policy, asked }: { form: BookingForm; headingId: string; policy: string; asked: boolean }) {
  const { t, busy, cancel } = form;
  const [asking, setAsking] = useState(asked);
  return (
    <div className="border-t border-base-300 pt-4">
      {!asking ? (
        <form method="post">
          <button
            type="submit"
            name="intent"
            value="ask-cancel"
            className="btn btn-outline btn-error w-full"
            onClick={(e) => {
              e.preventDefault();
              setAsking(true);
            }}
          >
            {t('booking.edit.cancel')}
          </button>
        </form>
      ) : (
        <div role="alertdialog" aria-labelledby={headingId} aria-describedby={`${headingId}-policy`} className="space-y-2">
          <p id={headingId} className="font-medium">
            {t('booking.edit.cancelConfirm')}
          </p>
          <p id={`${headingId}-policy`} className="text-sm">
            <span className="font-medium">{t('booking.summary.policy')}</span> {policy || t('booking.policyNone')}
          </p>
          <form
            method="post"
            className="flex gap-2"
            onSubmit={(e) => {
              e.preventDefault();
              void cancel().finally(() => setAsking(false));
            }}
          >
            <button type="submit" name="intent" value="cancel" className="btn btn-error" disabled={busy} autoFocus>
              {t('booking.edit.cancelYes')}
            </button>
            <button
              type="submit"
              name="intent"
              value="keep"
              className="btn btn-ghost"
              onClick={(e) => {
                e.preventDefault();
                setAsking(false);
              }}
            >
              {t('booking.edit.cancelNo')}
            </button>
          </form>
        </div>
      )}
    </div>
  );
}
