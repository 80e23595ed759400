/** The confirmation step: the booking as it will be made, then one tap to make it. */
import type { BookingForm } from './useBookingForm';
import type { BookingWidgetProps } from './types';
import Summary from './Summary';

export default function ConfirmStep({ form, props, headingId }: { form: BookingForm; props: BookingWidgetProps; headingId: string }) {
  const { t, values, chosen, busy, submit, setStep } = form;
  if (!chosen) return null;
  return (
    <section aria-labelledby={headingId} className="space-y-4" data-testid="booking-confirm">
      <h2 id={headingId} className="text-xl font-bold" tabIndex={-1}>
        {t('booking.form.confirmTitle')}
      </h2>
      <Summary t={t} store={props.store} start={chosen.start} end={chosen.end} party={values.party} seat={values.seat} note={values.note} locale={props.locale} contact={props.mode === 'guest' ? values.contact : undefined} />
      <div className="flex flex-col gap-2 sm:flex-row">
        <button type="button" className="btn btn-primary btn-lg" onClick={() => void submit()} disabled={busy} aria-busy={busy}>
          {busy ? t('booking.form.submitting') : t(props.mode === 'edit' ? 'booking.form.confirmEdit' : 'booking.form.confirm')}
        </button>
        <button type="button" className="btn btn-ghost" onClick={() => setStep('form')} disabled={busy}>
          {t('booking.form.back')}
        </button>
      </div>
    </section>
  );
}
