/**
 * After a lost race: what happened, the next free times as one-tap choices (without JavaScript,
 * each posts the form `formId` with its start), and a link to be told when the start that was
 * taken frees up again (the plain watch form, prefilled).
 */
import { formatTime } from '../../lib/datetime';
import { watchPaths } from '../../lib/contract/paths';
import type { BookingForm } from './useBookingForm';

export default function RaceNotice({ form, storeId, formId }: { form: BookingForm; storeId: number; formId: string }) {
  const { race, pickRaceSlot, errors, values, t, firstBooking } = form;
  // A refusal that names no field (too many bookings, a duplicate), as the server said it without JavaScript.
  if (!race && errors._)
    return (
      <div className="alert alert-error flex-col items-start" role="alert" data-testid="booking-refused">
        <p>{errors._}</p>
        {firstBooking && (
          <a className="link font-semibold" href={firstBooking} data-testid="first-booking">
            {t('booking.duplicate.first')}
          </a>
        )}
      </div>
    );
  if (!race) return null;
  return (
    <div className="alert alert-warning flex-col items-start" role="alert" data-testid="race-lost">
      <p>{race.message}</p>
      {race.next.length > 0 && (
        <div className="flex flex-wrap gap-2">
          {race.next.map((s) => (
            // Without JavaScript a start posts the booking form with it, and the page answers with its confirmation.
            <button
              key={s.start}
              type="submit"
              form={formId}
              name="start"
              value={s.start}
              className="btn"
              onClick={(e) => {
                e.preventDefault();
                pickRaceSlot(s.start);
              }}
            >
              {formatTime(new Date(s.start), { day: values.date, t })}
            </button>
          ))}
        </div>
      )}
      {race.taken && (
        <p className="text-sm">
          {t('watch.ask.taken')}{' '}
          <a className="link font-semibold" href={watchPaths.ask({ store_id: storeId, party: values.party, from: race.taken })} data-testid="watch-taken">
            {t('watch.form.submit')}
          </a>
        </p>
      )}
    </div>
  );
}
