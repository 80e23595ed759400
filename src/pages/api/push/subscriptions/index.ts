import { api, json, readJson, unauthorized } from '#src/server/http/api.ts';
import { getDb } from '#src/server/db/startup.ts';
import { listSubscriptions, subscribe } from '#src/server/push/service.ts';
import { pushOwner } from '#src/server/push/http.ts';
import { pushSubscriptionSchema } from '#src/lib/contract/push.ts';

/** This browser says yes to notifications: for the signed-in diner, or for the guest device of its watches. */
export const POST = api(async ({ locals, request, cookies }) => {
  const owner = pushOwner(locals, request, cookies);
  if (!owner) throw unauthorized();
  const input = await readJson(request, locals.t, pushSubscriptionSchema);
  return json(await subscribe(await getDb(), locals.t, owner, input, locals.locale), { status: 201 });
});

export const GET = api(async ({ locals, request, cookies }) => {
  const owner = pushOwner(locals, request, cookies);
  if (!owner) throw unauthorized();
  return json({ items: await listSubscriptions(await getDb(), owner) });
});
