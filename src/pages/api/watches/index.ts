import { api, json, readJson, unauthorized } from '../../../server/http/api';
import { getDb } from '../../../server/db/startup';
import { publicOrigin } from '../../../server/config';
import { createWatch, listWatches } from '../../../server/watches/service';
import { deviceWatchToken, rememberWatchDevice, watchJson, watchOwner } from '../../../server/watches/http';
import { watchSchema } from '../../../lib/contract/watches';

/** Watch a store or a search for a free table; a guest also gets the device token (and its cookie). */
export const POST = api(async ({ locals, request, cookies }) => {
  const input = await readJson(request, locals.t, watchSchema);
  const who = locals.user ? ({ kind: 'user', userId: locals.user.id, email: locals.user.email } as const) : ({ kind: 'guest', deviceToken: deviceWatchToken(request, cookies) } as const);
  const { watch, deviceToken } = await createWatch(await getDb(), locals.t, input, who, { ip: locals.clientAddress, origin: publicOrigin(), locale: locals.locale });
  if (deviceToken) rememberWatchDevice(cookies, locals, deviceToken);
  return json({ ...watchJson(watch), ...(deviceToken ? { device_token: deviceToken } : {}) }, { status: 201 });
});

export const GET = api(async ({ locals, request, cookies }) => {
  const owner = watchOwner(locals, request, cookies);
  if (!owner) throw unauthorized();
  return json({ items: (await listWatches(await getDb(), owner)).map(watchJson) });
});
