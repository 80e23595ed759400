// The 順番待ち's wait estimate against a replayed day: a busy store (12 tables, open 11:00–23:00)
// gets a generated day of bookings (some no-shows, released after the grace period), walk-ins that
// join the queue (a lunch and a dinner rush; some give up and leave) and stays that run short or
// long around the store's turn times. Minute by minute the store seats its queue in order, each
// party at the smallest free table that fits it for its turn time without running into a booking,
// as staff calling the next party would. Every party that joins gets the estimate the page shows
// (the real estimateWait, from what the store knows then: who sits since when, the bookings, the
// parties ahead), and is later seated: the error is how far the wait it had was from the middle of
// the range it was shown, and how often it fell inside that range. Pure computation, seeded, so a
// run gives the same day every time; several days make the figures.
import { register } from 'tsx/esm/api';
import { percentile } from './lib.mjs';

register();
const { estimateWait } = await import('../src/server/queue/estimate.ts');
// The demo seed's generator: the same day for the same seed.
const { mulberry32: rng } = await import('../src/server/db/seed.ts');

const MIN = 60_000;
const DAY = '2026-11-20';
const opens = new Date(`${DAY}T11:00:00+09:00`).getTime();
const closes = new Date(`${DAY}T23:00:00+09:00`).getTime();

const TABLES = [
  ...[1, 2, 3, 4].map((id) => ({ id, kind: 'counter', minParty: 1, maxParty: 2, online: true })),
  ...[5, 6, 7, 8, 9].map((id) => ({ id, kind: 'table', minParty: 1, maxParty: 4, online: true })),
  { id: 10, kind: 'table', minParty: 2, maxParty: 6, online: true },
  { id: 11, kind: 'tatami', minParty: 2, maxParty: 8, online: true },
  { id: 12, kind: 'table', minParty: 1, maxParty: 4, online: false },
];
const TURN = [
  { party: 1, minutes: 45 },
  { party: 2, minutes: 60 },
];
const STAY = 90;
const GRACE = 15;
const turnOf = (party) => TURN.find((t) => t.party === party)?.minutes ?? STAY;

/** Arrivals per minute at minute `m` of the day (from 11:00): a lunch rush and a bigger dinner one. */
function rate(m, busy) {
  const bump = (centre, width, height) => height * Math.exp(-(((m - centre) / width) ** 2));
  return busy * (0.03 + bump(90, 45, 0.25) + bump(480, 70, 0.3));
}

function partySize(r) {
  const x = r();
  return x < 0.15 ? 1 : x < 0.6 ? 2 : x < 0.75 ? 3 : x < 0.9 ? 4 : x < 0.97 ? 5 : 6;
}

/** One replayed day; returns, per seated walk-in, the wait it had and the range it was shown. */
function replayDay(seed) {
  const r = rng(seed);
  // Actual stays: around the turn time, short or long (a few linger well past it).
  const actualStay = (party) => Math.max(20, Math.round(turnOf(party) * (0.7 + 0.6 * r() + (r() < 0.1 ? 0.4 : 0))));
  // Bookings made ahead: start on quarter hours, a table booked for each, 8% never come.
  const bookings = [];
  for (let i = 0; i < 34; i++) {
    const party = partySize(r);
    const start = opens + Math.floor((r() * ((closes - opens) / MIN - turnOf(party))) / 15) * 15 * MIN;
    const end = start + turnOf(party) * MIN;
    const table = TABLES.filter(
      (t) => t.online && t.minParty <= party && party <= t.maxParty && !bookings.some((b) => b.tableId === t.id && b.start < end && start < b.end),
    ).sort((a, b) => a.maxParty - b.maxParty)[0];
    if (!table) continue;
    bookings.push({ tableId: table.id, start, end, party, noShow: r() < 0.08, stay: actualStay(party), seatedUntil: null });
  }
  // Walk-ins: a Poisson stream by the minute; 10% give up after waiting 20–60 minutes.
  const walkIns = [];
  for (let m = 0; m < (closes - opens) / MIN - 60; m++) {
    let n = 0;
    for (let p = Math.exp(-rate(m, 1)), s = r(); s > p; s *= r()) n++;
    for (let k = 0; k < n; k++) {
      const party = partySize(r);
      walkIns.push({
        joined: opens + m * MIN,
        party,
        stay: actualStay(party),
        patience: r() < 0.1 ? (20 + r() * 40) * MIN : Infinity,
        seatedAt: null,
        left: false,
        shown: null,
      });
    }
  }
  /** Parties sitting: table, since, until when they actually stay (the store only knows since when). */
  const sitting = [];
  const queue = [];
  let next = 0;
  const storeNow = (now) => {
    // What the store knows: a seated party keeps its table for its turn time (or, overstaying, a few minutes more), bookings keep theirs.
    const busy = sitting.map((s) => ({
      tableId: s.tableId,
      start: new Date(s.since),
      end: new Date(Math.max(s.since + turnOf(s.party) * MIN, now + 5 * MIN)),
    }));
    for (const b of bookings) {
      if (b.seatedUntil !== null || b.released) continue;
      busy.push({ tableId: b.tableId, start: new Date(b.start), end: new Date(b.end) });
    }
    return {
      hours: [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, opensMin: 11 * 60, closesMin: 23 * 60 })),
      overrides: [],
      stayMinutes: STAY,
      turnTimes: TURN,
      tables: TABLES,
      busy,
    };
  };
  for (let now = opens; now <= closes; now += MIN) {
    // Parties leave when their stay ends; booked parties arrive (or, no-shows, are released after the grace period).
    for (let i = sitting.length - 1; i >= 0; i--) if (sitting[i].until <= now) sitting.splice(i, 1);
    for (const b of bookings) {
      if (b.seatedUntil !== null || b.released) continue;
      if (!b.noShow && b.start === now) {
        b.seatedUntil = now + b.stay * MIN;
        sitting.push({ tableId: b.tableId, since: now, until: b.seatedUntil, party: b.party });
      } else if (b.noShow && now >= b.start + GRACE * MIN) b.released = true;
    }
    // Walk-ins join the queue and are shown their estimate; some give up.
    while (next < walkIns.length && walkIns[next].joined <= now) {
      const w = walkIns[next++];
      w.shown = estimateWait(
        storeNow(now),
        w.party,
        queue.map((q) => q.party),
        new Date(now),
      );
      queue.push(w);
    }
    for (let i = queue.length - 1; i >= 0; i--) if (now - queue[i].joined >= queue[i].patience) (queue[i].left = true), queue.splice(i, 1);
    // The store seats its queue in order, each at the smallest table free now that fits it for its turn time.
    const state = storeNow(now);
    const occupied = new Set(sitting.map((s) => s.tableId));
    for (let i = 0; i < queue.length; i++) {
      const w = queue[i];
      const end = now + turnOf(w.party) * MIN;
      if (end > closes) continue;
      const table = TABLES.filter(
        (t) =>
          t.minParty <= w.party &&
          w.party <= t.maxParty &&
          !occupied.has(t.id) &&
          !state.busy.some((b) => b.tableId === t.id && b.start.getTime() < end && now < b.end.getTime()),
      ).sort((a, b) => a.maxParty - b.maxParty)[0];
      if (!table) continue;
      occupied.add(table.id);
      w.seatedAt = now;
      sitting.push({ tableId: table.id, since: now, until: now + w.stay * MIN, party: w.party });
      queue.splice(i--, 1);
    }
  }
  return { walkIns, bookings };
}

export function measureQueue({ quick = false } = {}) {
  const days = quick ? 5 : 30;
  const errors = [];
  let joined = 0;
  let seated = 0;
  let left = 0;
  let noEstimate = 0;
  let inside = 0;
  let noShows = 0;
  let bookingCount = 0;
  const waits = [];
  const widths = [];
  const t0 = performance.now();
  for (let d = 0; d < days; d++) {
    const { walkIns, bookings } = replayDay(1000 + d);
    bookingCount += bookings.length;
    noShows += bookings.filter((b) => b.noShow).length;
    for (const w of walkIns) {
      joined++;
      if (w.left) left++;
      if (w.seatedAt === null) continue;
      seated++;
      if (!w.shown) {
        noEstimate++;
        continue;
      }
      const wait = (w.seatedAt - w.joined) / MIN;
      const mid = (w.shown.min_minutes + w.shown.max_minutes) / 2;
      errors.push(Math.abs(wait - mid));
      waits.push(wait);
      widths.push(w.shown.max_minutes - w.shown.min_minutes);
      if (wait >= w.shown.min_minutes && wait <= w.shown.max_minutes) inside++;
    }
  }
  const sorted = (a) => [...a].sort((x, y) => x - y);
  const e = sorted(errors);
  const wt = sorted(waits);
  const wd = sorted(widths);
  return {
    days,
    tables: TABLES.length,
    bookings: bookingCount,
    noShows,
    joined,
    seated,
    left,
    noEstimate,
    waitMedian: percentile(wt, 50),
    waitP90: percentile(wt, 90),
    errorMedian: percentile(e, 50),
    errorP90: percentile(e, 90),
    insideRange: inside / Math.max(errors.length, 1),
    rangeWidthMedian: percentile(wd, 50),
    ms: performance.now() - t0,
  };
}
