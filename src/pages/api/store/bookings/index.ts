import { json, readJson, readQuery } from '#src/server/http/api.ts';
import { storeApi } from '#src/server/staff/http.ts';
import { getDb } from '#src/server/db/startup.ts';
import { staffScope, storeOf } from '#src/server/staff/access.ts';
import { dayBookings } from '#src/server/staff/dayBookings.ts';
import { writeDownBooking } from '#src/server/staff/bookings.ts';
import { withinStaffLimits } from '#src/server/staff/limits.ts';
import { bookingContext } from '#src/server/bookings/http.ts';
import { businessDate } from '#src/server/availability/index.ts';
import { staffBookingSchema, storeDayQuerySchema, type StoreDayJson } from '#src/lib/contract/staff.ts';
import { clock } from '#src/server/clock.ts';

/** The business day's bookings at one of the staff's stores (party, table, contact, note), the latest change first. */
export const GET = storeApi(async ({ locals, url }) => {
  const db = await getDb();
  const scope = await staffScope(db, locals.user);
  const query = readQuery(url, locals.t, storeDayQuerySchema);
  const storeId = storeOf(scope, query.store_id);
  const date = query.date ?? businessDate(clock.now());
  const answer: StoreDayJson = { store_id: storeId, date, items: await dayBookings(db, storeId, date) };
  return json(answer);
});

/** Writes down a phone booking by the online booking's rules: 201 with it; 409 `slot_taken` when the table went meanwhile. */
export const POST = storeApi(async ({ locals, request }) => {
  const db = await getDb();
  const scope = await staffScope(db, locals.user);
  const input = await readJson(request, locals.t, staffBookingSchema);
  const booking = await withinStaffLimits(db, scope, () => writeDownBooking(db, bookingContext(locals), scope, input));
  return json(booking, { status: 201, headers: { location: `/api/store/bookings/${booking.id}` } });
});
