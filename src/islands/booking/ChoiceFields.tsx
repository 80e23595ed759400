/** Date, party size, seat preference and note: what every booking form asks. */
import { NOTE_MAX } from '../../lib/contract/limits';
import type { TableKind } from '../../lib/contract/enums';
import type { BookingForm } from './useBookingForm';
import type { WidgetStore } from './types';
import { describedBy, FieldError, FieldNote } from './FieldError';
import SlotPicker from './SlotPicker';

interface Props {
  form: BookingForm;
  store: WidgetStore;
  dates: { value: string; label: string }[];
  fieldId: (name: string) => string;
}

export default function ChoiceFields({ form, store, dates, fieldId }: Props) {
  const { t, values, set } = form;
  const label = (name: string, key: string) => (
    <label htmlFor={fieldId(name)} className="label-text mb-1 block font-medium">
      {t(key)}
    </label>
  );
  return (
    <>
      <div className="grid grid-cols-[2fr_1fr] gap-3">
        <div className="form-control">
          {label('date', 'booking.form.date')}
          <select id={fieldId('date')} name="date" className="select select-bordered w-full" value={values.date} onChange={(e) => set('date', e.target.value)}>
            {dates.map((d) => (
              <option key={d.value} value={d.value}>
                {d.label}
              </option>
            ))}
          </select>
          <FieldNote form={form} name="date" fieldId={fieldId} />
        </div>
        <div className="form-control">
          {label('party_size', 'booking.form.party')}
          <select
            id={fieldId('party_size')}
            name="party_size"
            className="select select-bordered w-full"
            value={values.party}
            onChange={(e) => set('party', Number(e.target.value))}
            {...describedBy(form, 'party_size', fieldId)}
          >
            {Array.from({ length: store.maxParty }, (_, i) => i + 1).map((n) => (
              <option key={n} value={n}>
                {t('booking.partyCount', { count: n })}
              </option>
            ))}
          </select>
          <FieldError form={form} name="party_size" fieldId={fieldId} />
          <FieldNote form={form} name="party_size" fieldId={fieldId} />
        </div>
      </div>

      {/* Without JavaScript a changed date or party shows its starts through the page (the island reloads them itself; nojs-only hides it from the first paint). */}
      {!form.hydrated && (
        <button type="submit" name="intent" value="slots" className="nojs-only btn btn-outline w-full">
          {t('booking.form.showSlots')}
        </button>
      )}

      <SlotPicker form={form} fieldId={fieldId} />

      {store.kinds.length > 1 && (
        <div className="form-control block">
          {label('seat_preference', 'booking.form.seat')}
          <select
            id={fieldId('seat_preference')}
            name="seat_preference"
            className="select select-bordered w-full"
            value={values.seat}
            onChange={(e) => set('seat', e.target.value as TableKind | '')}
          >
            <option value="">{t('booking.seat.any')}</option>
            {store.kinds.map((k) => (
              <option key={k} value={k}>
                {t(`booking.seat.${k}`)}
              </option>
            ))}
          </select>
        </div>
      )}

      <div className="form-control block">
        {label('note', 'booking.form.note')}
        {/* No maxlength: a browser would cut a pasted text silently. The counter shows the contract's
            limit as it is typed, and a longer text is refused with the field's error, kept as typed. */}
        <textarea
          id={fieldId('note')}
          name="note"
          className={`textarea textarea-bordered w-full${values.note.length > NOTE_MAX ? ' textarea-error' : ''}`}
          rows={2}
          value={values.note}
          placeholder={t('booking.form.notePlaceholder')}
          onChange={(e) => set('note', e.target.value)}
          {...describedBy(form, 'note', fieldId)}
          aria-describedby={[form.errors.note ? fieldId('note-error') : '', fieldId('note-count')].filter(Boolean).join(' ')}
        />
        <p
          id={fieldId('note-count')}
          className={`mt-1 text-end text-xs tabular-nums ${values.note.length > NOTE_MAX ? 'font-semibold text-error' : 'text-base-content/70'}`}
          data-testid="note-count"
        >
          {t('booking.form.noteCount', { count: values.note.length, max: NOTE_MAX })}
        </p>
        <FieldError form={form} name="note" fieldId={fieldId} />
      </div>
    </>
  );
}
