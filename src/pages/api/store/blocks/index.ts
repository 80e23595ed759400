import { json, readJson, readQuery, translate } from '../../../../server/http/api';
import { storeApi } from '../../../../server/staff/http';
import { getDb } from '../../../../server/db/startup';
import { staffScope, storeOf } from '../../../../server/staff/access';
import { createBlock, listBlocks } from '../../../../server/staff/blocks';
import { withinStaffLimits } from '../../../../server/staff/limits';
import { businessDate } from '../../../../server/availability';
import { blockListQuerySchema, blockSchema } from '../../../../lib/contract/staff';
import { clock } from '../../../../server/clock';

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
