/**
 * The guest bookings made on this device. Their ids come from local storage; each is fetched from
 * the API with the HttpOnly cookie that was set for that booking when it was made, so the edit
 * token itself never sits where script could read it.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import { formatStay } from '../lib/datetime';
import { shownStatus } from '../lib/bookingStatus';
import { $guestBookings, forgetGuestBooking } from '../state/guestBookings';
import { bookingPaths, storePath } from '../lib/contract/paths';
import { api } from '../lib/api/client';
import type { BookingJson } from '../lib/contract/responses';
import { fromDictionary } from '../lib/contract/messages';

type Loaded = Pick<BookingJson, 'id' | 'code' | 'store_id' | 'store_name' | 'start' | 'end' | 'party_size' | 'status' | 'changeable'>;

type Entry = { state: 'loading' } | { state: 'ok'; booking: Loaded } | { state: 'gone' };

export default function GuestBookingList({ locale, labels: L }: { locale: string; labels: Record<string, string> }) {
  const t = fromDictionary(L, locale);
  const remembered = useStore($guestBookings);
  const [hydrated, setHydrated] = useState(false);
  const [entries, setEntries] = useState<Record<number, Entry>>({});

  useEffect(() => setHydrated(true), []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the remembered list changes; `entries` is read to skip those already fetched, not to refetch.
  useEffect(() => {
    for (const r of remembered) {
      if (entries[r.id]) continue;
      setEntries((e) => ({ ...e, [r.id]: { state: 'loading' } }));
      // The guest cookie set on the API's path for this booking is the key.
      api
        .GET('/api/guest-bookings/{id}', { params: { path: { id: r.id } } })
        .then(({ data }): Loaded | null => data ?? null)
        .catch(() => null)
        .then((booking) => setEntries((e) => ({ ...e, [r.id]: booking ? { state: 'ok', booking } : { state: 'gone' } })));
    }
  }, [remembered]);

  return (
    <section aria-labelledby="guest-bookings" data-testid="guest-bookings">
      <h2 id="guest-bookings" className="mb-2 text-lg font-bold">
        {L['booking.list.guestTitle']}
      </h2>
      {!hydrated ? (
        <p className="text-sm" role="status">
          {L['booking.list.loading']}
        </p>
      ) : remembered.length === 0 ? (
        <p className="text-sm opacity-80">{L['booking.list.guestEmpty']}</p>
      ) : (
        <ul className="space-y-2">
          {[...remembered]
            .sort((a, b) => b.start.localeCompare(a.start))
            .map((r) => {
              const e = entries[r.id] ?? { state: 'loading' };
              return (
                <li key={r.id} className="card bg-base-200" data-testid="booking-item" data-code={r.code}>
                  <div className="card-body gap-1 p-4">
                    {e.state === 'ok' ? (
                      <>
                        <div className="flex items-center justify-between gap-2">
                          <a className="inline-flex min-h-11 min-w-11 items-center font-bold" href={storePath(e.booking.store_id)}>
                            {e.booking.store_name}
                          </a>
                          <span className={`badge ${shownStatus(e.booking.status, e.booking.end) === 'confirmed' ? 'badge-success' : 'badge-ghost'}`}>
                            {L[`booking.status.${shownStatus(e.booking.status, e.booking.end)}`]}
                          </span>
                        </div>
                        <p>
                          {formatStay(new Date(e.booking.start), new Date(e.booking.end), locale, t)} ・{' '}
                          {t('booking.partyCount', { count: e.booking.party_size })}
                        </p>
                        <p className="font-mono text-sm opacity-80">{e.booking.code}</p>
                        <div className="card-actions mt-1">
                          {e.booking.changeable && (
                            <a className="btn btn-primary" href={bookingPaths.guestEdit(e.booking.store_id, e.booking.id)}>
                              {L['booking.list.edit']}
                            </a>
                          )}
                          <a className="btn btn-outline" href={bookingPaths.book(e.booking.store_id, false)}>
                            {L['booking.list.rebook']}
                          </a>
                        </div>
                      </>
                    ) : e.state === 'gone' ? (
                      <div className="flex flex-wrap items-center justify-between gap-2">
                        <p className="text-sm">
                          <span className="font-mono">{r.code}</span> — {L['booking.list.unavailable']}
                        </p>
                        <button type="button" className="btn" onClick={() => forgetGuestBooking(r.id)}>
                          {L['booking.list.forget']}
                        </button>
                      </div>
                    ) : (
                      <p className="text-sm" role="status">
                        <span className="font-mono">{r.code}</span> {L['booking.list.loading']}
                      </p>
                    )}
                  </div>
                </li>
              );
            })}
        </ul>
      )}
    </section>
  );
}
