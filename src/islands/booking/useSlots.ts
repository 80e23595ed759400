/**
 * The free start times of one day at one store for a party (at tables of the seat kind chosen, as
 * the booking will be), fetched from the API and fetched again whenever the live stream says the
 * store's availability changed.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { $liveAvailability, liveKey, watchLiveAvailability, type LiveAvailability } from '../../state/liveAvailability';
import type { SlotJson } from '../../lib/contract/responses';
import { TABLE_KINDS, type FeeOffer, type TableKind } from '../../lib/contract/enums';
import { api } from '../../lib/api/client';

export interface Slots {
  state: 'loading' | 'ready' | 'error';
  items: SlotJson[];
}

/**
 * `initial`: the starts the server rendered, shown until the first answer (and without JavaScript);
 * `offer`: what they are offered for, which words each one's cancellation fee; `confirming`: the
 * diner is on the confirm step, where any change at the store is worth a look (their start may be
 * the one just taken).
 */
export function useSlots(
  storeId: number,
  date: string,
  party: number,
  seat: string,
  offer: FeeOffer,
  initial?: SlotJson[],
  confirming = false,
): { slots: Slots; reload: () => Promise<void> } {
  const [slots, setSlots] = useState<Slots>(initial ? { state: 'ready', items: initial } : { state: 'loading', items: [] });
  const latest = useRef(0);

  const reload = useCallback(async () => {
    const n = ++latest.current;
    setSlots((s) => ({ state: 'loading', items: s.items }));
    try {
      // The form's select gives a string: only a kind of table narrows the starts.
      const kind = TABLE_KINDS.find((k): k is TableKind => k === seat);
      const query = { date, party, ...(kind ? { seat: kind } : {}), ...(offer === 'book' ? {} : { offer }) };
      const { data, response } = await api.GET('/api/stores/{id}/availability', { params: { path: { id: storeId }, query } });
      if (!data) throw new Error(String(response.status));
      if (n === latest.current) setSlots({ state: 'ready', items: data.slots });
    } catch {
      if (n === latest.current) setSlots({ state: 'error', items: [] });
    }
  }, [storeId, date, party, seat, offer]);

  useEffect(() => {
    void reload();
  }, [reload]);

  const eager = useRef(confirming);
  eager.current = confirming;
  // When the store's next hour changes, the live stream says so: fetch the day again. Changes that
  // leave the next hour as it was (`rev` alone moves) matter to a diner on the confirm step only
  // (whose start may be the one taken: the step then says so and offers the next free ones).
  useEffect(() => {
    const key = liveKey(storeId, party);
    const nextHour = (live: LiveAvailability | undefined) => JSON.stringify(live ? [live.free_tables, live.next_slots, eager.current ? live.rev : null] : null);
    let last = nextHour($liveAvailability.get()[key]);
    const unlisten = $liveAvailability.listen((all) => {
      const next = nextHour(all[key]);
      if (next === last) return;
      const first = last === 'null';
      last = next;
      // The first word of a stream opened while confirming may already tell of the start taken.
      if (!first || eager.current) void reload();
    });
    const stop = watchLiveAvailability([storeId], party);
    return () => {
      unlisten();
      stop();
    };
  }, [storeId, party, reload]);

  return { slots, reload };
}
