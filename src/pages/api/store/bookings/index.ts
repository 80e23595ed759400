import { json, readJson, readQuery } from '../../../../server/http/api';
import { storeApi } from '../../../../server/staff/http';
import { getDb } from '../../../../server/db/startup';
import { staffScope, storeOf } from '../../../../server/staff/access';
import { dayBookings } from '../../../../server/staff/dayBookings';
import { writeDownBooking } from '../../../../server/staff/bookings';
import { withinStaffLimits } from '../../../../server/staff/limits';
import { bookingContext } from '../../../../server/bookings/http';
import { businessDate } from '../../../../server/availability';
import { staffBookingSchema, storeDayQuerySchema, type StoreDayJson } from '../../../../lib/contract/staff';
import { clock } from '../../../../server/clock';

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
