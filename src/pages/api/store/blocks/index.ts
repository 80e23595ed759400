import { json, readJson, readQuery, translate } from '#src/server/http/api.ts';
import { storeApi } from '#src/server/staff/http.ts';
import { getDb } from '#src/server/db/startup.ts';
import { staffScope, storeOf } from '#src/server/staff/access.ts';
import { createBlock, listBlocks } from '#src/server/staff/blocks.ts';
import { withinStaffLimits } from '#src/server/staff/limits.ts';
import { businessDate } from '#src/server/availability/index.ts';
import { blockListQuerySchema, blockSchema } from '#src/lib/contract/staff.ts';
import { clock } from '#src/server/clock.ts';

/** The store's blocks touching one business day (today's by default), released ones included. */
export const GET = storeApi(async ({ locals, url }) => {
  const db = await getDb();
  const scope = await staffScope(db, locals.user);
  const query = readQuery(url, locals.t, blockListQuerySchema);
  const storeId = storeOf(scope, query.store_id);
  const date = query.date ?? businessDate(clock.now());
  return json({ store_id: storeId, date, items: await listBlocks(db, storeId, date) });
});

/** Holds a table from `start` to `end`: 201 with the block; 409 `table_held` when a booking or block has it then. */
export const POST = storeApi(async ({ locals, request }) => {
  const db = await getDb();
  const scope = await staffScope(db, locals.user);
  const input = await readJson(request, locals.t, blockSchema);
  const block = await withinStaffLimits(db, scope, () => createBlock(db, translate(locals.t), scope, input));
  return json(block, { status: 201, headers: { location: `/api/store/blocks/${block.id}` } });
});
