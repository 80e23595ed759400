import { api, json, readJson, unauthorized } from '../../../server/http/api';
import { getDb } from '../../../server/db/startup';
import { publicOrigin } from '../../../server/config';
import { createWatch, listWatches } from '../../../server/watches/service';
import { watchJson, watchOwner } from '../../../server/watches/http';
import { watchSchema } from '../../../lib/contract/watches';

/** Watch a store or a search for a free table; a guest also gets the device token, once. */
export const POST = api(async ({ locals, request }) => {
  const input = await readJson(request, locals.t, watchSchema);
  const who = locals.user ? ({ kind: 'user', userId: locals.user.id, email: locals.user.email } as const) : ({ kind: 'guest' } as const);
  const { watch, deviceToken } = await createWatch(await getDb(), locals.t, input, who, { ip: locals.clientAddress, origin: publicOrigin(), locale: locals.locale });
  return json({ ...watchJson(watch), ...(deviceToken ? { device_token: deviceToken } : {}) }, { status: 201 });
});

export const GET = api(async ({ locals, request }) => {
  const owner = watchOwner(locals, request);
  if (!owner) throw unauthorized();
  return json({ items: (await listWatches(await getDb(), owner)).map(watchJson) });
});
