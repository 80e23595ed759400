/** After a lost race: what happened, and the next free times as one-tap choices. */
import { formatTime } from '../../lib/datetime';
import type { BookingForm } from './useBookingForm';

export default function RaceNotice({ form }: { form: BookingForm }) {
  const { race, pickRaceSlot, errors, values, t } = form;
  // A refusal that names no field (too many bookings, for one), as the server said it without JavaScript.
  if (!race && errors._) return <p className="alert alert-error" role="alert">{errors._}</p>;
  if (!race) return null;
  return (
    <div className="alert alert-warning flex-col items-start" role="alert" data-testid="race-lost">
      <p>{race.message}</p>
      {race.next.length > 0 && (
        <div className="flex flex-wrap gap-2">
          {race.next.map((s) => (
            <button key={s.start} type="button" className="btn btn-sm" onClick={() => pickRaceSlot(s.start)} disabled={!form.hydrated}>
              {formatTime(new Date(s.start), { day: values.date, t })}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
