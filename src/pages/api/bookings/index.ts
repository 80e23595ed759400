import { api, json, readJson, unauthorized } from '#src/server/http/api.ts';
import { getDb } from '#src/server/db/startup.ts';
import { book, bookingContext } from '#src/server/bookings/http.ts';
import { bookingJson } from '#src/server/bookings/json.ts';
import { listBookings } from '#src/server/bookings/view.ts';
import { deviceHash, deviceId, withinBookingLimits } from '#src/server/bookingLimits.ts';
import { createSchema } from '#src/lib/contract/booking.ts';
import { bookingPaths } from '#src/lib/contract/paths.ts';
import { clock } from '#src/server/clock.ts';
import { idempotent } from '#src/server/idempotency.ts';

/** The signed-in diner's bookings, newest first. */
export const GET = api(async ({ locals }) => {
  if (!locals.user) throw unauthorized();
  const now = clock.now();
  const items = await listBookings(await getDb(), locals.user.id);
  return json({ items: items.map((b) => bookingJson(b, locals, now)) });
});

/**
 * Books a table at once: 201 with the booking, 409 `slot_taken` with `next_slots` when the slot is
 * gone, 409 `duplicate_booking` when the diner already holds an overlapping one there, 429 past the
 * limits. With an `Idempotency-Key`, a retry gets the first answer.
 */
export const POST = api(async (context) => {
  const { locals, cookies } = context;
  const user = locals.user;
  if (!user) throw unauthorized();
  const db = await getDb();
  return idempotent(db, context, async (request) => {
    const input = await readJson(request, locals.t, createSchema);
    const ctx = { ...bookingContext(locals), device: deviceHash(deviceId(cookies, locals)) };
    const { booking } = await withinBookingLimits(db, { kind: 'user', userId: user.id }, () =>
      book(db, input, { kind: 'user', userId: user.id, email: user.email, name: user.name }, ctx),
    );
    return json(bookingJson(booking, locals), { status: 201, headers: { location: bookingPaths.api(booking.id) } });
  });
});
