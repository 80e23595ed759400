/**
 * The booking widget: date, party size, a free start time from the live slots, seat preference and
 * a note (plus contact details for guests); a confirmation step; then the booking. Used to create
 * (signed in or as a guest) and to change an existing booking. Losing a race brings the diner back
 * to the form with the next free times offered and everything entered kept.
 */
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { $liveAvailability, liveKey, watchLiveAvailability } from '../stores/liveAvailability';
import { formatStay, formatTime } from '../lib/datetime';
import { rememberGuestBooking } from '../stores/guestBookings';
import { showToast } from '../stores/toasts';

type Kind = 'counter' | 'table' | 'private_room' | 'tatami';

interface SlotJson {
  start: string;
  end: string;
  free_tables: number;
}

interface BookingJson {
  id: number;
  code: string;
  store_id: number;
  start: string;
  end: string;
  party_size: number;
  status: 'confirmed' | 'cancelled';
  seat_preference: Kind | null;
  note: string;
  edit_token?: string;
}

export interface BookingWidgetProps {
  mode: 'create' | 'guest' | 'edit';
  /** POST target (create, guest) or the booking's URL (edit). */
  api: string;
  store: { id: number; name: string; policy: string; maxParty: number; kinds: Kind[]; stayMinutes: number };
  dates: { value: string; label: string }[];
  locale: string;
  labels: Record<string, string>;
  /** Create: where to go after booking, with `{id}` in it. */
  doneUrl?: string;
  /** Edit: the booking as it is. */
  booking?: { start: string; end: string; date: string; party: number; seat: Kind | null; note: string; changeable: boolean; status: string };
  /** Guest: where signing in leads. */
  signinUrl?: string;
}

type Errors = Record<string, string>;

const FIELD_IDS = ['date', 'party_size', 'start', 'seat_preference', 'note', 'name', 'name_kana', 'phone', 'email'] as const;

export default function BookingWidget(props: BookingWidgetProps) {
  const { mode, store, labels: L, locale } = props;
  const uid = useId();
  const id = (name: string) => `${uid}-${name}`;
  const [date, setDate] = useState(props.booking?.date ?? props.dates[0]?.value ?? '');
  const [party, setParty] = useState(props.booking?.party ?? Math.min(2, store.maxParty));
  const [start, setStart] = useState<string>(props.booking?.start ?? '');
  const [seat, setSeat] = useState<Kind | ''>(props.booking?.seat ?? '');
  const [note, setNote] = useState(props.booking?.note ?? '');
  const [contact, setContact] = useState({ name: '', name_kana: '', phone: '', email: '' });
  const [slots, setSlots] = useState<{ state: 'loading' | 'ready' | 'error'; items: SlotJson[] }>({ state: 'loading', items: [] });
  const [step, setStep] = useState<'form' | 'confirm' | 'done' | 'cancelled'>(props.booking?.status === 'cancelled' ? 'cancelled' : 'form');
  const [errors, setErrors] = useState<Errors>({});
  const [race, setRace] = useState<{ message: string; next: SlotJson[] } | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<BookingJson | null>(null);
  const [asking, setAsking] = useState(false);
  const formTop = useRef<HTMLDivElement>(null);
  const reload = useRef(0);

  const loadSlots = useCallback(async () => {
    const n = ++reload.current;
    setSlots((s) => ({ state: 'loading', items: s.items }));
    try {
      const res = await fetch(`/api/stores/${store.id}/availability?date=${encodeURIComponent(date)}&party=${party}`, { headers: { accept: 'application/json' } });
      if (!res.ok) throw new Error(String(res.status));
      const body = (await res.json()) as { slots: SlotJson[] };
      if (n === reload.current) setSlots({ state: 'ready', items: body.slots });
    } catch {
      if (n === reload.current) setSlots({ state: 'error', items: [] });
    }
  }, [store.id, date, party]);

  useEffect(() => {
    void loadSlots();
  }, [loadSlots]);

  // When anyone books, changes or cancels at this store, the live stream says so: fetch the day again.
  useEffect(() => {
    const key = liveKey(store.id, party);
    let last = JSON.stringify($liveAvailability.get()[key] ?? null);
    const unlisten = $liveAvailability.listen((all) => {
      const next = JSON.stringify(all[key] ?? null);
      if (next === last) return;
      const first = last === 'null';
      last = next;
      if (!first) void loadSlots();
    });
    const stop = watchLiveAvailability([store.id], party);
    return () => {
      unlisten();
      stop();
    };
  }, [store.id, party, loadSlots]);

  const isCurrent = (s: string) => mode === 'edit' && props.booking !== undefined && sameInstant(s, props.booking.start);
  const free = slots.items.filter((s) => s.free_tables > 0 || isCurrent(s.start));
  // A start that the new date or party no longer offers is dropped, so nothing stale is submitted.
  useEffect(() => {
    if (slots.state === 'ready' && start && !free.some((s) => sameInstant(s.start, start))) setStart('');
  }, [slots]); // eslint-disable-line react-hooks/exhaustive-deps

  const chosen = free.find((s) => sameInstant(s.start, start)) ?? (race?.next.find((s) => sameInstant(s.start, start)) ?? null);

  function check(): Errors {
    const e: Errors = {};
    if (!start) e.start = L['booking.form.pickTime']!;
    if (note.length > 200) e.note = L['booking.error.noteTooLong']!;
    if (mode === 'guest') {
      if (!contact.name.trim()) e.name = L['booking.guest.nameRequired']!;
      if (!/^[\p{Script=Katakana}\p{Script=Hiragana}ー・･\s\u3000]+$/u.test(contact.name_kana.trim())) e.name_kana = L['booking.guest.kanaInvalid']!;
      if (!/^[+\d][\d\s\-()]{8,18}$/.test(contact.phone.trim())) e.phone = L['booking.guest.phoneInvalid']!;
      if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(contact.email.trim())) e.email = L['booking.guest.emailInvalid']!;
    }
    return e;
  }

  function toConfirm(ev: { preventDefault(): void }) {
    ev.preventDefault();
    const e = check();
    setErrors(e);
    if (Object.keys(e).length) {
      focusFirst(e);
      return;
    }
    setStep('confirm');
    window.scrollTo({ top: 0 });
  }

  function focusFirst(e: Errors) {
    const first = FIELD_IDS.find((f) => e[f]);
    if (first) requestAnimationFrame(() => document.getElementById(id(first))?.focus());
  }

  async function submit() {
    setBusy(true);
    setRace(null);
    const body: Record<string, unknown> = { start, party_size: party, seat_preference: seat || null, note };
    if (mode !== 'edit') body.store_id = store.id;
    if (mode === 'guest') Object.assign(body, contact);
    try {
      const res = await fetch(props.api, {
        method: mode === 'edit' ? 'PATCH' : 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(body),
      });
      const json = (await res.json().catch(() => null)) as (BookingJson & { error?: { code: string; message: string; fields?: Errors; next_slots?: SlotJson[] } }) | null;
      if (res.ok && json) {
        if (mode === 'create') {
          window.location.assign(props.doneUrl!.replace('{id}', String(json.id)));
          return;
        }
        if (mode === 'guest') {
          rememberGuestBooking({ id: json.id, storeId: json.store_id, code: json.code, start: json.start });
          setDone(json);
          setStep('done');
          window.scrollTo({ top: 0 });
        } else {
          // The page's summary is server-rendered: show the booking as it now is.
          window.location.replace(`${window.location.pathname}?done=saved`);
        }
        return;
      }
      const error = json?.error;
      if (res.status === 409 && error?.code === 'slot_taken') {
        setRace({ message: error.next_slots?.length ? L['booking.raceLost']! : L['booking.raceNone']!, next: error.next_slots ?? [] });
        setStart('');
        setStep('form');
        void loadSlots();
        requestAnimationFrame(() => formTop.current?.focus());
        return;
      }
      if (error?.fields) {
        setErrors(error.fields);
        setStep('form');
        focusFirst(error.fields);
      }
      showToast({ kind: 'error', message: error?.message ?? L['booking.error.network'] });
    } catch (e) {
      showToast({ kind: 'error', message: L['booking.error.network'], error: e });
    } finally {
      setBusy(false);
    }
  }

  async function cancel() {
    setBusy(true);
    try {
      const res = await fetch(props.api, { method: 'DELETE', headers: { accept: 'application/json' } });
      const json = (await res.json().catch(() => null)) as { status?: string; error?: { message: string } } | null;
      if (res.ok && json?.status === 'cancelled') {
        window.location.replace(`${window.location.pathname}?done=cancelled`);
      } else showToast({ kind: 'error', message: json?.error?.message ?? L['booking.error.network'] });
    } catch (e) {
      showToast({ kind: 'error', message: L['booking.error.network'], error: e });
    } finally {
      setBusy(false);
      setAsking(false);
    }
  }

  const seatLabel = (k: Kind | '') => L[`booking.seat.${k || 'any'}`]!;
  const err = (name: string) =>
    errors[name] ? (
      <p id={id(`${name}-error`)} className="mt-1 text-sm text-error" role="alert">
        {errors[name]}
      </p>
    ) : null;
  const aria = (name: string) => (errors[name] ? { 'aria-invalid': true, 'aria-describedby': id(`${name}-error`) } : {});

  if (step === 'cancelled') {
    return (
      <div role="status" className="alert alert-info" data-testid="booking-cancelled">
        {L['booking.edit.cancelled']}
      </div>
    );
  }

  if (step === 'done' && done) {
    const link = `${window.location.origin}/store/${done.store_id}/booking-without/edit/${done.id}?token=${encodeURIComponent(done.edit_token ?? '')}`;
    return (
      <section aria-labelledby={id('done')} className="space-y-4" data-testid="booking-done">
        <h2 id={id('done')} className="text-xl font-bold">
          {L['booking.title.complete']}
        </h2>
        <p>{L['booking.complete.leadGuest']}</p>
        <Summary L={L} store={store} start={done.start} end={done.end} party={done.party_size} seat={done.seat_preference ?? ''} note={done.note} code={done.code} locale={locale} />
        <div className="card bg-base-200">
          <div className="card-body gap-2 p-4">
            <h3 className="font-bold">{L['booking.complete.editLinkTitle']}</h3>
            <p className="text-sm">{L['booking.complete.editLinkNote']}</p>
            <a className="link link-primary break-all" href={link} rel="noreferrer" data-testid="edit-link">
              {link}
            </a>
          </div>
        </div>
        <div className="flex flex-wrap gap-2">
          <a className="btn btn-outline" href={`/api/guest-bookings/${done.id}/ics`} download>
            {L['booking.complete.ics']}
          </a>
          <a className="btn btn-ghost" href="/booking-list">
            {L['booking.complete.toList']}
          </a>
        </div>
      </section>
    );
  }

  if (step === 'confirm' && chosen) {
    return (
      <section aria-labelledby={id('confirm')} className="space-y-4" data-testid="booking-confirm">
        <h2 id={id('confirm')} className="text-xl font-bold" tabIndex={-1}>
          {L['booking.form.confirmTitle']}
        </h2>
        <Summary L={L} store={store} start={chosen.start} end={chosen.end} party={party} seat={seat} note={note} locale={locale} contact={mode === 'guest' ? contact : undefined} />
        <div className="flex flex-col gap-2 sm:flex-row">
          <button type="button" className="btn btn-primary btn-lg" onClick={submit} disabled={busy} aria-busy={busy}>
            {busy ? L['booking.form.submitting'] : mode === 'edit' ? L['booking.form.confirmEdit'] : L['booking.form.confirm']}
          </button>
          <button type="button" className="btn btn-ghost" onClick={() => setStep('form')} disabled={busy}>
            {L['booking.form.back']}
          </button>
        </div>
      </section>
    );
  }

  const disabled = mode === 'edit' && props.booking && !props.booking.changeable;
  if (disabled) return <p className="alert">{L['booking.edit.notChangeable']}</p>;

  return (
    <div className="space-y-4">
      <div ref={formTop} tabIndex={-1} aria-live="polite">
        {race && (
          <div className="alert alert-warning flex-col items-start" role="alert" data-testid="race-lost">
            <p>{race.message}</p>
            {race.next.length > 0 && (
              <div className="flex flex-wrap gap-2">
                {race.next.map((s) => (
                  <button
                    key={s.start}
                    type="button"
                    className="btn btn-sm"
                    onClick={() => {
                      setStart(s.start);
                      setRace(null);
                    }}
                  >
                    {formatTime(new Date(s.start))}
                  </button>
                ))}
              </div>
            )}
          </div>
        )}
      </div>
      <form onSubmit={toConfirm} noValidate className="space-y-4" data-testid="booking-form">
        <div className="grid grid-cols-2 gap-3">
          <div className="form-control">
            <label htmlFor={id('date')} className="label-text mb-1 block font-medium">{L['booking.form.date']}</label>
            <select id={id('date')} name="date" className="select select-bordered w-full" value={date} onChange={(e) => setDate(e.target.value)}>
              {props.dates.map((d) => (
                <option key={d.value} value={d.value}>
                  {d.label}
                </option>
              ))}
            </select>
          </div>
          <div className="form-control">
            <label htmlFor={id('party_size')} className="label-text mb-1 block font-medium">{L['booking.form.party']}</label>
            <select id={id('party_size')} name="party_size" className="select select-bordered w-full" value={party} onChange={(e) => setParty(Number(e.target.value))} {...aria('party_size')}>
              {Array.from({ length: store.maxParty }, (_, i) => i + 1).map((n) => (
                <option key={n} value={n}>
                  {L['booking.partyCount']!.replace('{{count}}', String(n))}
                </option>
              ))}
            </select>
            {err('party_size')}
          </div>
        </div>

        <fieldset aria-describedby={errors.start ? id('start-error') : undefined}>
          <legend className="mb-1 font-medium">{L['booking.form.time']}</legend>
          {slots.state === 'loading' && slots.items.length === 0 && (
            <p className="flex min-h-12 items-center gap-2 text-sm" role="status">
              <span className="loading loading-spinner loading-sm" aria-hidden="true" />
              {L['booking.form.loadingSlots']}
            </p>
          )}
          {slots.state === 'error' && (
            <p className="flex items-center gap-2 text-sm text-error" role="alert">
              {L['booking.form.slotsError']}
              <button type="button" className="btn btn-xs" onClick={() => void loadSlots()}>
                {L['booking.form.retry']}
              </button>
            </p>
          )}
          {slots.state !== 'error' && !(slots.state === 'loading' && slots.items.length === 0) && free.length === 0 && (
            <p className="text-sm" role="status">
              {L['booking.form.noSlots']!.replace('{{party}}', String(party))}
            </p>
          )}
          <div className="grid grid-cols-4 gap-2 sm:grid-cols-6" id={id('start')} tabIndex={-1} data-testid="slots">
            {free.map((s) => {
              const checked = sameInstant(s.start, start);
              return (
                <label key={s.start} className={`btn btn-sm h-auto flex-col py-1 ${checked ? 'btn-primary' : 'btn-outline'}`}>
                  <input type="radio" name="start" value={s.start} checked={checked} onChange={() => setStart(s.start)} className="sr-only" />
                  <span className="text-base">{formatTime(new Date(s.start))}</span>
                  <span className="text-xs font-normal">{isCurrent(s.start) ? L['booking.form.currentTime'] : L['booking.form.freeTables']!.replace('{{count}}', String(s.free_tables))}</span>
                </label>
              );
            })}
          </div>
          {err('start')}
        </fieldset>

        {store.kinds.length > 1 && (
          <div className="form-control block">
            <label htmlFor={id('seat_preference')} className="label-text mb-1 block font-medium">{L['booking.form.seat']}</label>
            <select id={id('seat_preference')} name="seat_preference" className="select select-bordered w-full" value={seat} onChange={(e) => setSeat(e.target.value as Kind | '')}>
              <option value="">{seatLabel('')}</option>
              {store.kinds.map((k) => (
                <option key={k} value={k}>
                  {seatLabel(k)}
                </option>
              ))}
            </select>
          </div>
        )}

        <div className="form-control block">
          <label htmlFor={id('note')} className="label-text mb-1 block font-medium">{L['booking.form.note']}</label>
          <textarea id={id('note')} name="note" className="textarea textarea-bordered w-full" rows={2} maxLength={200} value={note} placeholder={L['booking.form.notePlaceholder']} onChange={(e) => setNote(e.target.value)} {...aria('note')} />
          {err('note')}
        </div>

        {mode === 'guest' && (
          <fieldset className="space-y-3">
            <legend className="mb-1 font-bold">{L['booking.guest.contact']}</legend>
            {(
              [
                ['name', 'booking.guest.name', 'text', 'name'],
                ['name_kana', 'booking.guest.nameKana', 'text', 'off'],
                ['phone', 'booking.guest.phone', 'tel', 'tel'],
                ['email', 'booking.guest.email', 'email', 'email'],
              ] as const
            ).map(([name, label, type, auto]) => (
              <div key={name} className="form-control block">
                <label htmlFor={id(name)} className="label-text mb-1 block font-medium">{L[label]}</label>
                <input
                  id={id(name)}
                  name={name}
                  type={type}
                  autoComplete={auto}
                  inputMode={type === 'tel' ? 'tel' : undefined}
                  placeholder={name === 'phone' ? L['booking.guest.phoneHint'] : undefined}
                  className={`input input-bordered w-full ${errors[name] ? 'input-error' : ''}`}
                  value={contact[name]}
                  onChange={(e) => setContact({ ...contact, [name]: e.target.value })}
                  {...aria(name)}
                />
                {err(name)}
              </div>
            ))}
          </fieldset>
        )}

        <button type="submit" className="btn btn-primary btn-lg w-full">
          {L['booking.form.next']}
        </button>
      </form>

      {mode === 'edit' && (
        <div className="border-t border-base-300 pt-4">
          {!asking ? (
            <button type="button" className="btn btn-outline btn-error w-full" onClick={() => setAsking(true)}>
              {L['booking.edit.cancel']}
            </button>
          ) : (
            <div role="alertdialog" aria-labelledby={id('ask')} className="space-y-2">
              <p id={id('ask')} className="font-medium">
                {L['booking.edit.cancelConfirm']}
              </p>
              <div className="flex gap-2">
                <button type="button" className="btn btn-error" onClick={cancel} disabled={busy} autoFocus>
                  {L['booking.edit.cancelYes']}
                </button>
                <button type="button" className="btn btn-ghost" onClick={() => setAsking(false)}>
                  {L['booking.edit.cancelNo']}
                </button>
              </div>
            </div>
          )}
        </div>
      )}

      {mode === 'guest' && props.signinUrl && (
        <p className="text-sm">
          {L['booking.guest.signinHint']}{' '}
          <a className="link link-primary" href={props.signinUrl}>
            {L['booking.guest.signin']}
          </a>
        </p>
      )}
    </div>
  );
}

function sameInstant(a: string, b: string): boolean {
  return new Date(a).getTime() === new Date(b).getTime();
}

function Summary(p: {
  L: Record<string, string>;
  store: BookingWidgetProps['store'];
  start: string;
  end: string;
  party: number;
  seat: Kind | '';
  note: string;
  locale: string;
  code?: string;
  contact?: { name: string; name_kana: string; phone: string; email: string };
}) {
  const { L } = p;
  const rows: Array<[string, string]> = [
    ...(p.code ? ([[L['booking.summary.code']!, p.code]] as Array<[string, string]>) : []),
    [L['booking.summary.store']!, p.store.name],
    [L['booking.summary.time']!, formatStay(new Date(p.start), new Date(p.end), p.locale)],
    [L['booking.summary.party']!, L['booking.partyCount']!.replace('{{count}}', String(p.party))],
    [L['booking.summary.seat']!, L[`booking.seat.${p.seat || 'any'}`]!],
    ...(p.note ? ([[L['booking.summary.note']!, p.note]] as Array<[string, string]>) : []),
    ...(p.contact
      ? ([
          [L['booking.guest.name']!, `${p.contact.name}（${p.contact.name_kana}）`],
          [L['booking.guest.phone']!, p.contact.phone],
          [L['booking.guest.email']!, p.contact.email],
        ] as Array<[string, string]>)
      : []),
  ];
  return (
    <div className="space-y-3">
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 rounded-box bg-base-200 p-4" data-testid="summary">
        {rows.map(([k, v]) => (
          <div key={k} className="contents">
            <dt className="font-medium opacity-80">{k}</dt>
            <dd className={k === L['booking.summary.code'] ? 'font-mono text-lg font-bold' : ''}>{v}</dd>
          </div>
        ))}
      </dl>
      <div>
        <h3 className="font-medium">{L['booking.summary.policy']}</h3>
        <p className="text-sm">{p.store.policy || L['booking.policyNone']}</p>
      </div>
    </div>
  );
}
