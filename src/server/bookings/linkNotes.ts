/**
 * What a link to the booking form asked for and could not have (`party=99`, `party=0`, a past or
 * far date, a start the store does not offer): said beside the field it concerns, never swapped
 * quietly for what the form shows instead.
 */
import type { T } from '../../i18n';
import { formatDay, formatWhen, tokyoInstant } from '../../lib/datetime';
import type { BookingFormState, FieldNotes } from '../../lib/contract/bookingForm';

type Base = Pick<BookingFormState, 'values' | 'slots' | 'notice'>;

/** How a day the link named is written back: as a date when it is one, else as it came (cut short). */
const dayLabel = (raw: string, locale: string) =>
  /^\d{4}-\d{2}-\d{2}$/.test(raw) && !Number.isNaN(Date.parse(raw)) ? formatDay(tokyoInstant(raw, 12 * 60), locale) : raw.slice(0, 24);

function startLabel(raw: string, locale: string, t: T): string {
  const at = new Date(raw);
  if (Number.isNaN(at.getTime()) || !/^\d{4}-/.test(raw)) return raw.slice(0, 32);
  return formatWhen(at, locale, t);
}

/**
 * The notes for the link's `params` against the form as it is shown (`base`), and the form with a
 * start the store does not offer at all told as such rather than as "just taken".
 */
export function linkNotes(
  params: URLSearchParams,
  base: Base,
  maxParty: number,
  reader: { t: T; locale: string },
): { notes: FieldNotes; notice: Base['notice'] } {
  const { t, locale } = reader;
  const notes: FieldNotes = {};
  let notice = base.notice;
  const party = params.get('party')?.trim();
  if (party && (!/^\d{1,3}$/.test(party) || Number(party) !== base.values.party)) {
    notes.party_size = t('booking.link.party', { asked: party.slice(0, 8), max: maxParty, party: base.values.party });
  }
  const date = params.get('date')?.trim();
  if (date && date !== base.values.date) notes.date = t('booking.link.date', { asked: dayLabel(date, locale), date: dayLabel(base.values.date, locale) });
  const start = params.get('start')?.trim();
  if (start && !base.values.start) {
    // A start the day has but full is a taken start (its notice offers the next free ones); one it does not have at all was never offered.
    const exists = base.slots.some((s) => Date.parse(s.start) === Date.parse(start));
    if (!exists) {
      notice = null;
      notes.start = t('booking.link.start', { asked: startLabel(start, locale, t) });
    }
  }
  return { notes, notice };
}
