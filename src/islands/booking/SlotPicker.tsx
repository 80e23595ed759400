/**
 * The day's free start times as radio buttons, with loading, empty and error states. A long day is
 * folded as the store page folds it (src/lib/slotGroups.ts): the first hour open, each later hour a
 * <details> that opens without JavaScript, so the choice fits one screen. The chosen start's hour
 * is always drawn open, so the start a link, a failed submit or a lost race brings is in view.
 */
import { Fragment, useState, type ReactNode } from 'react';
import { formatTime } from '../../lib/datetime';
import { groupLabel, groupStarts } from '../../lib/slotGroups';
import type { SlotJson } from '../../lib/contract/responses';
import type { BookingForm } from './useBookingForm';
import { sameInstant } from './types';
import { FieldError, FieldNote } from './FieldError';

export default function SlotPicker({ form, fieldId }: { form: BookingForm; fieldId: (name: string) => string }) {
  const { t, slots, free, values, errors, set, isCurrent, reload, now } = form;
  // Hours the diner opened or closed, by their first instant: a reload of the day keeps them so.
  const [toggled, setToggled] = useState<Record<number, boolean>>({});
  const waiting = slots.state === 'loading' && slots.items.length === 0;
  const under = { day: values.date, t };
  const radio = (s: SlotJson) => {
    const checked = sameInstant(s.start, values.start);
    return (
      <label key={s.start} className={`btn h-auto min-h-11 flex-col px-1 py-1 ${checked ? 'btn-primary' : 'btn-outline'}`}>
        <input type="radio" name="start" value={s.start} checked={checked} onChange={() => set('start', s.start)} className="sr-only" />
        <span className="whitespace-nowrap text-base">{formatTime(new Date(s.start), under)}</span>
        <span className="break-keep text-xs font-normal">
          {isCurrent(s.start) ? t('booking.form.currentTime') : t('common.freeTables', { count: s.free_tables })}
        </span>
      </label>
    );
  };
  // A folded hour's starts keep a gap above the next hour's summary when it is opened.
  const grid = (items: SlotJson[], folded = false): ReactNode => (
    <div className={`grid grid-cols-4 gap-2 sm:grid-cols-6${folded ? ' pb-2' : ''}`}>{items.map(radio)}</div>
  );
  const groups = groupStarts(free, (s) => Date.parse(s.start), now()).map((g) => {
    if (g.kind === 'all') return <Fragment key="all">{grid(g.items)}</Fragment>;
    const label = groupLabel(g, under);
    if (g.kind !== 'hour')
      return (
        <Fragment key="open">
          <p className="mb-1 text-sm font-semibold">{label}</p>
          {grid(g.items)}
        </Fragment>
      );
    const holdsChoice = g.items.some((s) => sameInstant(s.start, values.start));
    return (
      <details
        key={g.from}
        className="border-t border-base-300"
        data-slot-group={g.from}
        open={toggled[g.from] ?? holdsChoice}
        onToggle={(e) => {
          const open = e.currentTarget.open;
          setToggled((o) => (o[g.from] === open ? o : { ...o, [g.from]: open }));
        }}
      >
        {/* A finger's height (44 px), as every tap target. */}
        <summary className="min-h-11 cursor-pointer py-3 text-sm font-semibold">{label}</summary>
        {grid(g.items, true)}
      </details>
    );
  });
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
      <div id={fieldId('start')} tabIndex={-1} data-testid="slots">
        {groups}
      </div>
      <FieldError form={form} name="start" fieldId={fieldId} />
      <FieldNote form={form} name="start" fieldId={fieldId} />
    </fieldset>
  );
}
