/** The booking widget's props and the shapes its parts share. */
import type { TableKind } from '../../lib/contract/enums';
import type { BookingFormState } from '../../lib/contract/bookingForm';
import type { CancellationFeeJson } from '../../lib/contract/responses';

export type { Contact, FormValues } from '../../lib/contract/bookingForm';

export type Mode = 'create' | 'guest' | 'edit';

/** The booking the widget speaks of: the diner's own or a guest's, and `id` once it exists. */
export interface BookingTarget {
  guest: boolean;
  id?: number;
}

export interface WidgetStore {
  id: number;
  name: string;
  policy: string;
  maxParty: number;
  kinds: TableKind[];
  stayMinutes: number;
  address: string;
  phone: string;
  lat: number;
  lng: number;
}

export interface BookingWidgetProps {
  mode: Mode;
  /** Which API the widget books, changes and cancels through: the diner's own or a guest's, and the booking's id when it exists. */
  target: BookingTarget;
  store: WidgetStore;
  dates: { value: string; label: string }[];
  locale: string;
  labels: Record<string, string>;
  /** Create: where to go after booking, with `{id}` in it. */
  doneUrl?: string;
  /** Edit: the booking as it is. */
  booking?: {
    start: string;
    end: string;
    date: string;
    party: number;
    seat: TableKind | null;
    note: string;
    changeable: boolean;
    status: string;
    cancellation_fee: CancellationFeeJson;
  };
  /** Guest: where signing in leads. */
  signinUrl?: string;
  /** Create, guest: the form as the server rendered it (the choice a link carried, or a form posted without JavaScript). */
  initial?: BookingFormState;
  /** Create, guest: the page's own heading, shown until the booking is made. */
  title?: string;
  /** The server's clock as the page was drawn (epoch ms): whether a day's first starts are the next 60 minutes. */
  now?: number;
}

export type Errors = Record<string, string>;

/** The form's fields in the order they appear (the first with an error gets focus). */
export const FIELDS = ['date', 'party_size', 'start', 'seat_preference', 'note', 'name', 'name_kana', 'phone', 'email'] as const;

export const sameInstant = (a: string, b: string) => new Date(a).getTime() === new Date(b).getTime();
