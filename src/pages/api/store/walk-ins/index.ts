import { json, readJson, readQuery, translate } from '../../../../server/http/api';
import { storeApi } from '../../../../server/staff/http';
import { getDb } from '../../../../server/db/startup';
import { staffScope, storeOf } from '../../../../server/staff/access';
import { listWalkIns, seatWalkIn } from '../../../../server/staff/walkIns';
import { withinStaffLimits } from '../../../../server/staff/limits';
import { businessDate } from '../../../../server/availability';
import { storeDayQuerySchema, walkInSchema, type WalkInListJson } from '../../../../lib/contract/staff';
import { clock } from '../../../../server/clock';

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
