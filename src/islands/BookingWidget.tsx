/**
 * The booking widget: date, party size, a free start time from the live slots, seat preference and
 * a note (plus contact details for guests); a confirmation step; then the booking. Used to create
 * (signed in or as a guest) and to change an existing booking. The state and the calls live in
 * `useBookingForm`; the parts are in ./booking/.
 */
import { useId } from 'react';
import { useBookingForm } from './booking/useBookingForm';
import { preloadRules } from './booking/api';
import type { BookingWidgetProps } from './booking/types';
import ChoiceFields from './booking/ChoiceFields';
import GuestFields from './booking/GuestFields';
import ConfirmStep from './booking/ConfirmStep';
import DonePanel from './booking/DonePanel';
import CancelBox from './booking/CancelBox';
import RaceNotice from './booking/RaceNotice';

export type { BookingWidgetProps };

export default function BookingWidget(props: BookingWidgetProps) {
  const uid = useId();
  const fieldId = (name: string) => `${uid}-${name}`;
  const form = useBookingForm(props, fieldId);
  const { t, step } = form;
  const { mode } = props;

  // A cancelled booking: the page says so (once) and its summary shows the status; nothing to change.
  if (step === 'cancelled') return null;
  if (step === 'done') return <DonePanel form={form} props={props} headingId={fieldId('done')} />;
  // The page's heading stays until the booking is made; the done panel has its own.
  const title = props.title && <h1 className="mb-4 text-xl font-bold">{props.title}</h1>;
  if (step === 'confirm' && (form.chosen || form.filled)) {
    return (
      <>
        {title}
        <ConfirmStep form={form} props={props} headingId={fieldId('confirm')} />
      </>
    );
  }
  if (mode === 'edit' && props.booking && !props.booking.changeable) return <p className="alert">{t('booking.edit.notChangeable')}</p>;

  return (
    <div className="space-y-4">
      {title}
      <div ref={form.formTop} tabIndex={-1} aria-live="polite">
        <RaceNotice form={form} storeId={props.store.id} formId={fieldId('form')} />
      </div>
      {/* Without JavaScript the form posts to the page itself, which answers as the island would. */}
      <form
        id={fieldId('form')}
        method="post"
        onSubmit={(e) => {
          e.preventDefault();
          void form.toConfirm();
        }}
        onFocus={preloadRules}
        noValidate
        className="space-y-4"
        data-testid="booking-form"
      >
        <ChoiceFields form={form} store={props.store} dates={props.dates} fieldId={fieldId} />
        {mode === 'guest' && <GuestFields form={form} fieldId={fieldId} />}
        <button type="submit" name="intent" value="next" className="btn btn-primary btn-lg w-full">
          {t('booking.form.next')}
        </button>
      </form>
      {mode === 'edit' && (
        <CancelBox
          form={form}
          headingId={fieldId('ask')}
          policy={props.store.policy}
          fee={props.booking?.cancellation_fee}
          target={props.target}
          asked={props.initial?.askCancel ?? false}
        />
      )}
      {mode === 'guest' && props.signinUrl && (
        <p className="text-sm">
          {t('booking.guest.signinHint')}{' '}
          <a className="link link-primary" href={props.signinUrl}>
            {t('booking.guest.signin')}
          </a>
        </p>
      )}
    </div>
  );
}
