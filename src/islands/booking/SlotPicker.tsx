/** The day's free start times as radio buttons, with loading, empty and error states. */
import { formatTime } from '../../lib/datetime';
import type { BookingForm } from './useBookingForm';
import { sameInstant } from './types';
import { FieldError, FieldNote } from './FieldError';

export default function SlotPicker({ form, fieldId }: { form: BookingForm; fieldId: (name: string) => string }) {
  const { t, slots, free, values, errors, set, isCurrent, reload } = form;
  const waiting = slots.state === 'loading' && slots.items.length === 0;
  return (
    <fieldset aria-describedby={errors.start ? fieldId('start-error') : undefined}>
      <legend className="mb-1 font-medium">{t('booking.form.time')}</legend>
      {waiting && (
        <p className="flex min-h-12 items-center gap-2 text-sm" role="status">
          <span className="loading loading-spinner loading-sm" aria-hidden="true" />
          {t('booking.form.loadingSlots')}
        </p>
      )}
      {slots.state === 'error' && (
        <p className="flex items-center gap-2 text-sm text-error" role="alert">
          {t('booking.form.slotsError')}
          <button type="button" className="btn" onClick={() => void reload()}>
            {t('booking.form.retry')}
          </button>
        </p>
      )}
      {slots.state !== 'error' && !waiting && free.length === 0 && (
        <p className="text-sm" role="status">
          {t('booking.form.noSlots', { party: values.party })}
        </p>
      )}
      <div className="grid grid-cols-4 gap-2 sm:grid-cols-6" id={fieldId('start')} tabIndex={-1} data-testid="slots">
        {free.map((s) => {
          const checked = sameInstant(s.start, values.start);
          return (
            <label key={s.start} className={`btn h-auto min-h-11 flex-col px-1 py-1 ${checked ? 'btn-primary' : 'btn-outline'}`}>
              <input type="radio" name="start" value={s.start} checked={checked} onChange={() => set('start', s.start)} className="sr-only" />
              <span className="whitespace-nowrap text-base">{formatTime(new Date(s.start), { day: values.date, t })}</span>
              <span className="break-keep text-xs font-normal">{isCurrent(s.start) ? t('booking.form.currentTime') : t('common.freeTables', { count: s.free_tables })}</span>
            </label>
          );
        })}
      </div>
      <FieldError form={form} name="start" fieldId={fieldId} />
      <FieldNote form={form} name="start" fieldId={fieldId} />
    </fieldset>
  );
}
