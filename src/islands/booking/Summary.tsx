/** The booking as entered or as booked: code, store, stay, party, seat, note, contact. */
import { formatStay } from '../../lib/datetime';
import { normaliseEmail, normaliseKana, normalisePhone } from '../../lib/validation';
import type { Translate } from '../../lib/contract/messages';
import type { Contact, WidgetStore } from './types';

interface Props {
  t: Translate;
  store: WidgetStore;
  start: string;
  end: string;
  party: number;
  seat: string;
  note: string;
  locale: string;
  code?: string;
  contact?: Contact;
}

export default function Summary({ t, store, start, end, party, seat, note, locale, code, contact }: Props) {
  const rows: Array<[string, string, boolean?]> = [];
  if (code) rows.push([t('booking.summary.code'), code, true]);
  rows.push([t('booking.summary.store'), store.name]);
  rows.push([t('booking.summary.time'), formatStay(new Date(start), new Date(end), locale, t)]);
  rows.push([t('booking.summary.party'), t('booking.partyCount', { count: party })]);
  rows.push([t('booking.summary.seat'), t(`booking.seat.${seat || 'any'}`)]);
  if (note) rows.push([t('booking.summary.note'), note]);
  if (contact) {
    rows.push([t('booking.guest.name'), `${contact.name}（${normaliseKana(contact.name_kana)}）`]);
    // Shown as they will be stored: full-width digits and letters read as ASCII.
    rows.push([t('booking.guest.phone'), normalisePhone(contact.phone) ?? contact.phone]);
    rows.push([t('booking.guest.email'), normaliseEmail(contact.email)]);
  }
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 rounded-box bg-base-200 p-4" data-testid="summary">
      {rows.map(([k, v, mono]) => (
        <div key={k} className="contents">
          {/* A label never breaks inside its word (メールアドレス); a long address breaks instead. */}
          <dt className="font-medium whitespace-nowrap opacity-80">{k}</dt>
          <dd className={mono ? 'font-mono text-lg font-bold' : 'min-w-0 [overflow-wrap:anywhere]'}>{v}</dd>
        </div>
      ))}
    </dl>
  );
}
