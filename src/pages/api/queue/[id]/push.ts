import { api, idParam, json, readJson } from '#src/server/http/api.ts';
import { getDb } from '#src/server/db/startup.ts';
import { queueActor } from '#src/server/queue/http.ts';
import { followEntry } from '#src/server/queue/service.ts';
import { pushSubscriptionSchema } from '#src/lib/contract/push.ts';

/**
 * This browser gets the entry's call by push: for a guest, whose device has no account to hold
 * the subscription (the entry's token, in `X-Queue-Token` or its cookie, proves it is theirs).
 */
export const POST = api(async (context) => {
  const { request, locals } = context;
  const id = idParam(context.params.id);
  const input = await readJson(request, locals.t, pushSubscriptionSchema);
  return json(await followEntry(await getDb(), locals.t, id, queueActor(context), input, locals.locale), { status: 201 });
});
