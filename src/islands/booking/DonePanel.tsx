/** A guest's booking is made: its code, the edit link shown this once, calendar and history. */
import { bookingPaths } from '../../lib/contract/paths';
import type { BookingForm } from './useBookingForm';
import type { BookingWidgetProps } from './types';
import Summary from './Summary';

export default function DonePanel({ form, props, headingId }: { form: BookingForm; props: BookingWidgetProps; headingId: string }) {
  const { t, done, editLink } = form;
  if (!done) return null;
  return (
    <section aria-labelledby={headingId} className="space-y-4" data-testid="booking-done">
      <h1 id={headingId} className="text-xl font-bold">
        {t('booking.title.complete')}
      </h1>
      <p>{t('booking.complete.leadGuest')}</p>
      <Summary t={t} store={props.store} start={done.start} end={done.end} party={done.party_size} seat={done.seat_preference ?? ''} note={done.note} code={done.code} locale={props.locale} />
      <div className="card bg-base-200">
        <div className="card-body gap-2 p-4">
          <h3 className="font-bold">{t('booking.complete.editLinkTitle')}</h3>
          <p className="text-sm">{t('booking.complete.editLinkNote')}</p>
          <a className="link link-primary break-all" href={editLink} rel="noreferrer" data-testid="edit-link">
            {editLink}
          </a>
        </div>
      </div>
      <div className="flex flex-wrap gap-2">
        <a className="btn btn-outline" href={bookingPaths.guestIcs(done.id)} download>
          {t('booking.complete.ics')}
        </a>
        <a className="btn btn-ghost" href="/booking-list">
          {t('booking.complete.toList')}
        </a>
      </div>
    </section>
  );
}
