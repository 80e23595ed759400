/**
 * Cancelling a booking being changed: a button, then a confirmation asked in place that states the
 * cancellation fee as it applies now (asked of the server again when the question opens) and the
 * store's policy. Both are forms: without JavaScript they post to the page, which opens the
 * confirmation (`asked`) and then cancels.
 */
import { useState } from 'react';
import type { CancellationFeeJson } from '../../lib/contract/responses';
import { readBooking } from './api';
import type { BookingTarget } from './types';
import type { BookingForm } from './useBookingForm';
import FeeNotice from './FeeNotice';
import StepButton from './StepButton';

interface Props {
  form: BookingForm;
  headingId: string;
  policy: string;
  /** The fee as the page was rendered. */
  fee?: CancellationFeeJson;
  /** The booking, to ask for the fee as it stands when the question opens. */
  target: BookingTarget;
  asked: boolean;
}

export default function CancelBox({ form, headingId, policy, fee, target, asked }: Props) {
  const { t, busy, cancel, askCancel } = form;
  const [asking, setAsking] = useState(asked);
  const [current, setCurrent] = useState(fee);
  const ask = () => {
    setAsking(true);
    askCancel();
    void readBooking(target)
      .then((b) => b && setCurrent(b.cancellation_fee))
      .catch(() => {});
  };
  return (
    <div className="border-t border-base-300 pt-4">
      {!asking ? (
        <form method="post">
          <StepButton intent="ask-cancel" className="btn btn-outline btn-error w-full" onPress={ask}>
            {t('booking.edit.cancel')}
          </StepButton>
        </form>
      ) : (
        <div role="alertdialog" aria-labelledby={headingId} aria-describedby={`${headingId}-policy`} className="space-y-2" data-testid="cancel-dialog">
          <p id={headingId} className="font-medium">
            {t('booking.edit.cancelConfirm')}
          </p>
          <FeeNotice t={t} policy={policy} fee={current} id={`${headingId}-policy`} />
          <form
            method="post"
            className="flex gap-2"
            onSubmit={(e) => {
              e.preventDefault();
              // A failed answer leaves the question open: answering it again is a retry, with the same key.
              void cancel();
            }}
          >
            <button type="submit" name="intent" value="cancel" className="btn btn-error" disabled={busy} autoFocus>
              {t('booking.edit.cancelYes')}
            </button>
            <StepButton intent="keep" className="btn btn-ghost" onPress={() => setAsking(false)}>
              {t('booking.edit.cancelNo')}
            </StepButton>
          </form>
        </div>
      )}
    </div>
  );
}
