/** A guest's booking is made: its code, the edit link shown this once (with a copy button), the way to the store, calendar and history. */
import { useState } from 'react';
import { bookingPaths } from '../../lib/contract/paths';
import { formatStay } from '../../lib/datetime';
import type { BookingForm } from './useBookingForm';
import type { BookingWidgetProps } from './types';
import Summary from './Summary';
import FeeNotice from './FeeNotice';
import StoreLinks from './StoreLinks';

export default function DonePanel({ form, props, headingId }: { form: BookingForm; props: BookingWidgetProps; headingId: string }) {
  const { t, done, editLink, hydrated } = form;
  const [copied, setCopied] = useState(false);
  if (!done) return null;
  const when = formatStay(new Date(done.start), new Date(done.end), props.locale, t);
  const shareText = t('booking.complete.shareText', { store: props.store.name, when, party: t('booking.partyCount', { count: done.party_size }) });
  const copy = () =>
    navigator.clipboard.writeText(editLink).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  return (
    <section aria-labelledby={headingId} className="space-y-4" data-testid="booking-done">
      <h1 id={headingId} className="text-xl font-bold">
        {t('booking.title.complete')}
      </h1>
      <p>{t('booking.complete.leadGuest')}</p>
      <Summary
        t={t}
        store={props.store}
        start={done.start}
        end={done.end}
        party={done.party_size}
        seat={done.seat_preference ?? ''}
        note={done.note}
        code={done.code}
        locale={props.locale}
      />
      <FeeNotice t={t} policy={props.store.policy} fee={done.cancellation_fee} />
      <div className="card bg-base-200">
        <div className="card-body gap-2 p-4">
          <h2 className="font-bold">{t('booking.complete.editLinkTitle')}</h2>
          <p className="text-sm">{t('booking.complete.editLinkNote')}</p>
          <a className="link link-primary break-all" href={editLink} rel="noreferrer" data-testid="edit-link">
            {editLink}
          </a>
          {hydrated && typeof navigator !== 'undefined' && navigator.clipboard && (
            <div className="flex items-center gap-2">
              <button type="button" className="btn" onClick={() => void copy()} data-testid="copy-edit-link">
                {t('booking.complete.copy')}
              </button>
              <span role="status">{copied ? t('booking.complete.copied') : ''}</span>
            </div>
          )}
        </div>
      </div>
      <StoreLinks
        store={props.store}
        shareText={shareText}
        labels={{
          address: t('booking.complete.address'),
          directions: t('booking.complete.directions'),
          call: t('booking.complete.call'),
          share: t('booking.complete.share'),
        }}
      />
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
