import { api, json, readJson, unauthorized } from '../../../../server/http/api';
import { getDb } from '../../../../server/db/startup';
import { listSubscriptions, subscribe } from '../../../../server/push/service';
import { pushOwner } from '../../../../server/push/http';
import { pushSubscriptionSchema } from '../../../../lib/contract/push';

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
