/**
 * The booking widget's state and actions: the values entered, the day's free slots, the step
 * (form → confirm → done), field errors, a lost race, and sending. Losing a race brings the diner
 * back to the form with the next free times offered and everything entered kept; a start taken
 * while the diner is on the confirm step keeps them there, with the next free starts to tap.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { DEFAULT_PARTY } from '../../lib/contract/limits';
import { bookingPaths } from '../../lib/contract/paths';
import { fromDictionary } from '../../lib/contract/messages';
import type { BookingJson, SlotJson } from '../../lib/contract/responses';
import type { FieldNotes, GuestDone, TakenNotice } from '../../lib/contract/bookingForm';
import { rememberGuestBooking } from '../../state/guestBookings';
import { forgetGuestContact, saveGuestContact } from '../../state/guestContact';
import { showToast } from '../../state/toasts';
import { bookingBody, cancelBooking, checkBooking, newIntentKey, sendBooking } from './api';
import { FIELDS, sameInstant, type BookingWidgetProps, type Errors, type FormValues } from './types';
import { useSlots } from './useSlots';
import { useChoiceInUrl } from './useChoiceInUrl';
import { useSavedContact } from './useSavedContact';

export type Step = 'form' | 'confirm' | 'done' | 'cancelled';

export function useBookingForm(props: BookingWidgetProps, fieldId: (name: string) => string) {
  const { mode, store, booking } = props;
  const t = useMemo(() => fromDictionary(props.labels, props.locale), [props.labels, props.locale]);
  // The form as the server rendered it: the choice a link carried, the booking being changed, or what a plain form posted.
  const init = props.initial;
  const [values, setValues] = useState<FormValues>(
    init?.values ?? {
      date: booking?.date ?? props.dates[0]?.value ?? '',
      party: booking?.party ?? Math.min(DEFAULT_PARTY, store.maxParty),
      start: booking?.start ?? '',
      seat: booking?.seat ?? '',
      note: booking?.note ?? '',
      contact: { name: '', name_kana: '', phone: '', email: '' },
    },
  );
  const [step, setStep] = useState<Step>(booking?.status === 'cancelled' ? 'cancelled' : (init?.step ?? 'form'));
  const [errors, setErrors] = useState<Errors>(init?.errors ?? {});
  const [race, setRace] = useState<TakenNotice | null>(init?.notice ?? null);
  // The starts a lost race offered, each with its fee: one picked is confirmed from them until the day's starts reload.
  const [offered, setOffered] = useState<SlotJson[]>(init?.notice?.next ?? []);
  const [busy, setBusy] = useState(false);
  const [done] = useState<GuestDone | null>(init?.done ?? null);
  // A refusal as a duplicate: the page of the booking the diner already holds.
  const [firstBooking, setFirstBooking] = useState<string | undefined>(init?.firstBooking);
  // This confirm step's Idempotency-Key, drawn when the step is shown: a retry of the same booking
  // sends it again, so a lost answer never books twice. Back on the form, or another start picked on
  // the step (its own was taken), the next confirmation is a new intent with a key of its own.
  const intentKey = useRef<{ key: string; body: string } | null>(null);
  useEffect(() => {
    intentKey.current = step === 'confirm' ? { key: newIntentKey(), body: '' } : null;
  }, [step]);
  // Cancelling's key, drawn when its question opens and sent again by each retry of that answer.
  const cancelKey = useRef<string | null>(null);
  // The server's clock as the page was drawn, moving on with the browser's (tests set the server's);
  // without it, the browser's.
  const [drawn] = useState(() => ({ server: props.now ?? Date.now(), local: performance.now() }));
  const now = () => drawn.server + (performance.now() - drawn.local);
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const formTop = useRef<HTMLDivElement>(null);
  // The start on the confirm step, taken meanwhile by someone else: the step stays, says so, and offers the next free starts.
  const [filled, setFilled] = useState<{ taken: SlotJson; next: SlotJson[] } | null>(null);
  const { slots, reload } = useSlots(store.id, values.date, values.party, values.seat, mode === 'edit' ? 'change' : 'book', init?.slots, step === 'confirm');
  useChoiceInUrl(mode !== 'edit' && step !== 'done', values);
  const [remember, setRemember] = useSavedContact(mode === 'guest' && step === 'form', init?.remember ?? false, (contact) => {
    const next = { ...values, contact };
    setValues(next);
    if (next.start) void checkBooking(mode, bookingBody(mode, store.id, next), t).then((e) => Object.keys(e).length === 0 && setStep('confirm'));
  });

  // The start asked for is gone (another diner, or the clock): say so and offer the next free ones.
  const takenNotice = (next: SlotJson[], taken?: string): TakenNotice => ({
    message: t(next.length ? 'booking.raceLost' : 'booking.raceNone'),
    next,
    ...(taken ? { taken } : {}),
  });

  // What the link asked for and could not have, beside its field until the diner chooses that field again.
  const [notes, setNotes] = useState<FieldNotes>(init?.notes ?? {});
  const NOTE_OF: Partial<Record<keyof FormValues, keyof FieldNotes>> = { date: 'date', party: 'party_size', start: 'start' };
  const set = <K extends keyof FormValues>(key: K, value: FormValues[K]) => {
    const note = NOTE_OF[key];
    if (note) setNotes((n) => (n[note] ? { ...n, [note]: undefined } : n));
    setValues((v) => ({ ...v, [key]: value }));
  };
  const isCurrent = (s: string) => mode === 'edit' && booking !== undefined && sameInstant(s, booking.start);
  const free = slots.items.filter((s) => s.free_tables > 0 || isCurrent(s.start));
  const chosen = free.find((s) => sameInstant(s.start, values.start)) ?? offered.find((s) => sameInstant(s.start, values.start)) ?? null;
  const lastChosen = useRef<SlotJson | null>(null);
  if (chosen) lastChosen.current = chosen;

  // A start that the new date or party no longer offers is dropped, so nothing stale is submitted;
  // on the confirm step it stays in view, marked taken, beside the next free starts.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when new starts arrive, reading the step and the choice as they are then.
  useEffect(() => {
    if (slots.state !== 'ready' || !values.start) return;
    if (free.some((s) => sameInstant(s.start, values.start))) return setFilled(null);
    const taken = lastChosen.current;
    if (step === 'confirm' && taken && sameInstant(taken.start, values.start)) {
      const open = slots.items.filter((s) => s.free_tables > 0);
      const later = open.filter((s) => Date.parse(s.start) > Date.parse(taken.start));
      const earlier = open.filter((s) => Date.parse(s.start) < Date.parse(taken.start)).reverse();
      setFilled({ taken, next: [...later, ...earlier].slice(0, 4).sort((a, b) => Date.parse(a.start) - Date.parse(b.start)) });
      return;
    }
    set('start', '');
  }, [slots]);
  // Back to the form from a start taken meanwhile: nothing is chosen there until the diner picks again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on a change of step only.
  useEffect(() => {
    if (step === 'confirm' || !filled) return;
    setFilled(null);
    set('start', '');
  }, [step]);

  function showErrors(e: Errors) {
    setErrors(e);
    const first = FIELDS.find((f) => e[f]);
    if (first) requestAnimationFrame(() => document.getElementById(fieldId(first))?.focus());
  }

  async function toConfirm() {
    const e = await checkBooking(mode, bookingBody(mode, store.id, values), t);
    showErrors(e);
    if (Object.keys(e).length) return;
    setStep('confirm');
    window.scrollTo({ top: 0 });
  }

  // Each success goes to its own result page, replacing the form in the history: a reload or Back
  // shows the result, never the confirm step of a booking already made.
  function afterBooking(json: BookingJson) {
    if (mode === 'create') return window.location.replace(props.doneUrl!.replace('{id}', String(json.id)));
    // The edit page's summary is server-rendered: show the booking as it now is.
    if (mode === 'edit') return window.location.replace(`${window.location.pathname}?done=saved`);
    rememberGuestBooking({ id: json.id, storeId: json.store_id, code: json.code, start: json.start });
    if (remember) saveGuestContact(values.contact);
    else forgetGuestContact();
    // The result page shows the edit link from the cookie this answer set.
    window.location.replace(bookingPaths.guestComplete(json.store_id, json.id));
  }

  async function submit() {
    setBusy(true);
    setRace(null);
    setFirstBooking(undefined);
    try {
      const body = bookingBody(mode, store.id, values);
      const sent = JSON.stringify(body);
      const intent = intentKey.current;
      if (!intent || (intent.body !== '' && intent.body !== sent)) intentKey.current = { key: newIntentKey(), body: sent };
      else intent.body = sent;
      const answer = await sendBooking(mode, props.target, body, intentKey.current!.key, t);
      if (answer.ok) return afterBooking(answer.data);
      const error = answer.error;
      if (answer.status === 409 && error?.code === 'duplicate_booking') {
        setErrors({ _: error.message });
        setFirstBooking(error.booking_url);
        setStep('form');
        requestAnimationFrame(() => formTop.current?.focus());
        return;
      }
      if (answer.status === 409 && error?.code === 'slot_taken') {
        const next = error.next_slots ?? [];
        setRace(takenNotice(next, values.start || undefined));
        setOffered(next);
        set('start', '');
        setStep('form');
        void reload();
        requestAnimationFrame(() => formTop.current?.focus());
        return;
      }
      if (error?.fields) {
        setStep('form');
        showErrors(error.fields);
      }
      showToast({ kind: 'error', message: error?.message ?? t('booking.error.network') });
    } catch (e) {
      showToast({ kind: 'error', message: t('booking.error.network'), error: e });
    } finally {
      setBusy(false);
    }
  }

  /** Opens the question "cancel?": a new intent, whose key each retry of its answer sends again. */
  const askCancel = () => {
    cancelKey.current = newIntentKey();
  };
  /** Cancels; when the answer is not a cancellation the question stays open, and answering it again is a retry of the same intent. */
  async function cancel(): Promise<void> {
    setBusy(true);
    try {
      cancelKey.current ??= newIntentKey();
      const answer = await cancelBooking(props.target, cancelKey.current);
      if (answer.ok && answer.data.status === 'cancelled') window.location.replace(`${window.location.pathname}?done=cancelled`);
      else showToast({ kind: 'error', message: (!answer.ok && answer.error?.message) || t('booking.error.network') });
    } catch (e) {
      showToast({ kind: 'error', message: t('booking.error.network'), error: e });
    } finally {
      setBusy(false);
    }
  }

  const pickRaceSlot = (start: string) => {
    set('start', start);
    setRace(null);
  };
  /** One tap on a start offered after the confirmed one was taken: confirmed at once, with its own fee. */
  const pickInstead = (slot: SlotJson) => {
    setOffered((o) => [...o.filter((s) => !sameInstant(s.start, slot.start)), slot]);
    set('start', slot.start);
    setFilled(null);
  };
  const editLink = done ? (done.edit_url ?? window.location.origin + bookingPaths.guestEdit(done.store_id, done.id, done.edit_token)) : '';

  return {
    t,
    mode,
    now,
    values,
    set,
    notes,
    remember,
    setRemember,
    hydrated,
    slots,
    reload,
    free,
    chosen,
    filled,
    pickInstead,
    isCurrent,
    step,
    setStep,
    errors,
    race,
    pickRaceSlot,
    busy,
    done,
    editLink,
    formTop,
    toConfirm,
    submit,
    askCancel,
    cancel,
    firstBooking,
  };
}

export type BookingForm = ReturnType<typeof useBookingForm>;
