import { json, readJson, readQuery, translate } from '#src/server/http/api.ts';
import { storeApi } from '#src/server/staff/http.ts';
import { getDb } from '#src/server/db/startup.ts';
import { staffScope, storeOf } from '#src/server/staff/access.ts';
import { listWalkIns, seatWalkIn } from '#src/server/staff/walkIns.ts';
import { withinStaffLimits } from '#src/server/staff/limits.ts';
import { businessDate } from '#src/server/availability/index.ts';
import { storeDayQuerySchema, walkInSchema, type WalkInListJson } from '#src/lib/contract/staff.ts';
import { clock } from '#src/server/clock.ts';

/** The walk-ins seated on one business day (today's by default), earliest first. */
export const GET = storeApi(async ({ locals, url }) => {
  const db = await getDb();
  const scope = await staffScope(db, locals.user);
  const query = readQuery(url, locals.t, storeDayQuerySchema);
  const storeId = storeOf(scope, query.store_id);
  const date = query.date ?? businessDate(clock.now());
  const answer: WalkInListJson = { store_id: storeId, date, items: await listWalkIns(db, storeId, date) };
  return json(answer);
});

/** Seats a walk-in now: 201 with it; 409 `no_free_table` when no table fits and is free, `table_held` when the table named is taken. */
export const POST = storeApi(async ({ locals, request }) => {
  const db = await getDb();
  const scope = await staffScope(db, locals.user);
  const input = await readJson(request, locals.t, walkInSchema);
  const walkIn = await withinStaffLimits(db, scope, () => seatWalkIn(db, translate(locals.t), scope, input));
  return json(walkIn, { status: 201, headers: { location: `/api/store/walk-ins/${walkIn.id}` } });
});
