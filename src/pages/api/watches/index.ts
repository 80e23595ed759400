import { api, json, readJson, unauthorized } from '#src/server/http/api.ts';
import { getDb } from '#src/server/db/startup.ts';
import { publicOrigin } from '#src/server/config.ts';
import { createWatch, listWatches } from '#src/server/watches/service.ts';
import { deviceWatchToken, rememberWatchDevice, watchJson, watchOwner } from '#src/server/watches/http.ts';
import { watchSchema } from '#src/lib/contract/watches.ts';

/** Watch a store or a search for a free table; a guest also gets the device token (and its cookie). */
export const POST = api(async ({ locals, request, cookies }) => {
  const input = await readJson(request, locals.t, watchSchema);
  const who = locals.user
    ? ({ kind: 'user', userId: locals.user.id, email: locals.user.email } as const)
    : ({ kind: 'guest', deviceToken: deviceWatchToken(request, cookies) } as const);
  const { watch, deviceToken } = await createWatch(await getDb(), locals.t, input, who, {
    ip: locals.clientAddress,
    origin: publicOrigin(),
    locale: locals.locale,
  });
  if (deviceToken) rememberWatchDevice(cookies, locals, deviceToken);
  return json({ ...watchJson(watch), ...(deviceToken ? { device_token: deviceToken } : {}) }, { status: 201 });
});

export const GET = api(async ({ locals, request, cookies }) => {
  const owner = watchOwner(locals, request, cookies);
  if (!owner) throw unauthorized();
  return json({ items: (await listWatches(await getDb(), owner)).map(watchJson) });
});
