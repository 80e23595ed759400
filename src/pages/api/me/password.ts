import { api, readJson, unauthorized } from '#src/server/http/api.ts';
import { changePassword, changePasswordSchema } from '#src/server/account.ts';
import { getDb } from '#src/server/db/startup.ts';

/** `{current_password, new_password}` → 204; every other session of the user ends. */
export const PUT = api(async ({ request, locals }) => {
  if (!locals.user) throw unauthorized();
  const input = await readJson(request, locals.t, changePasswordSchema);
  await changePassword(await getDb(), locals.t, locals.user.id, input, locals.sessionId);
  return new Response(null, { status: 204 });
});
