/**
 * The confirmation step: the booking as it will be made, the cancellation fee as it would apply,
 * then one tap to make it. It is a form that carries every value, so without JavaScript the tap
 * posts it to the page, which books.
 */
import type { BookingForm } from './useBookingForm';
import type { BookingWidgetProps } from './types';
import Summary from './Summary';
import FeeNotice from './FeeNotice';
import StepButton from './StepButton';
import { givesUpHeld } from '../../lib/contract/fee';
import { telHref } from '../../lib/links';
import { formatTime } from '../../lib/datetime';

export default function ConfirmStep({ form, props, headingId }: { form: BookingForm; props: BookingWidgetProps; headingId: string }) {
  const { t, values, busy, submit, setStep, remember, filled, pickInstead } = form;
  // Taken meanwhile: the start stays in view, marked, beside the next free ones.
  const chosen = form.chosen ?? filled?.taken;
  if (!chosen) return null;
  const guest = props.mode === 'guest';
  const held = props.mode === 'edit' ? props.booking : undefined;
  // The fee is due on the booking as it is: a move or a smaller party goes through the store (src/lib/contract/fee.ts).
  const needsStore =
    held !== undefined &&
    held.cancellation_fee.applies === 'due' &&
    givesUpHeld({ start: new Date(held.start), party: held.party }, { start: new Date(values.start), party: values.party });
  const hidden: Record<string, string> = {
    date: values.date,
    party_size: String(values.party),
    start: values.start,
    seat_preference: values.seat,
    note: values.note,
    ...(guest ? { ...values.contact, remember: remember ? '1' : '' } : {}),
  };
  return (
    <section aria-labelledby={headingId} className="space-y-4" data-testid="booking-confirm">
      <h2 id={headingId} className="text-xl font-bold" tabIndex={-1}>
        {t('booking.form.confirmTitle')}
      </h2>
      <Summary
        t={t}
        store={props.store}
        start={chosen.start}
        end={chosen.end}
        party={values.party}
        seat={values.seat}
        note={values.note}
        locale={props.locale}
        contact={guest ? values.contact : undefined}
      />
      {filled && (
        <div className="alert alert-warning flex-col items-start" role="alert" data-testid="slot-filled">
          <p className="font-semibold">{t('booking.slotFilled')}</p>
          {filled.next.length > 0 ? (
            <div className="flex flex-wrap gap-2">
              {filled.next.map((s) => (
                <button key={s.start} type="button" className="btn" onClick={() => pickInstead(s)}>
                  {formatTime(new Date(s.start), { day: values.date, t })}
                </button>
              ))}
            </div>
          ) : (
            <p>{t('booking.raceNone')}</p>
          )}
        </div>
      )}
      {needsStore ? (
        <div className="alert alert-warning flex-col items-start" role="alert" data-testid="change-needs-store">
          <p>{t('booking.edit.needsStore', { phone: props.store.phone })}</p>
          <a className="btn btn-outline" href={telHref(props.store.phone)}>
            {t('booking.complete.call')}
          </a>
        </div>
      ) : (
        <FeeNotice t={t} policy={props.store.policy} fee={chosen.cancellation_fee} />
      )}
      <form
        method="post"
        className="flex flex-col gap-2 sm:flex-row"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        {Object.entries(hidden).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        {!needsStore && !filled && (
          <button type="submit" name="intent" value="book" className="btn btn-primary btn-lg" disabled={busy} aria-busy={busy}>
            {busy ? t('booking.form.submitting') : t(props.mode === 'edit' ? 'booking.form.confirmEdit' : 'booking.form.confirm')}
          </button>
        )}
        <StepButton intent="edit" className="btn btn-ghost" onPress={() => setStep('form')} disabled={busy}>
          {t('booking.form.back')}
        </StepButton>
      </form>
    </section>
  );
}
