import { api, json, jsonObject, readJson, unauthorized } from '../../server/http/api';
import { getAccount, profileSchema, updateAccount } from '../../server/account';
import { leaveFromApi } from '../../server/oidcLeave';
import { getDb } from '../../server/db/startup';
import { publicOrigin } from '../../server/config';
import { clearSessionCookie } from '../../server/sessions';

/** The signed-in user's account. */
export const GET = api(async ({ locals }) => {
  if (!locals.user) throw unauthorized();
  return json(await getAccount(await getDb(), locals.user.id));
});

/** Changes any of name, name_kana, phone, email. */
export const PATCH = api(async ({ request, locals }) => {
  if (!locals.user) throw unauthorized();
  const patch = await readJson(request, locals.t, profileSchema);
  return json(await updateAccount(await getDb(), locals.t, locals.user.id, patch, { origin: publicOrigin(), locale: locals.locale }));
});

/**
 * Leaves (退会) with `{password, confirm: true}` and signs out; an account without a password is
 * answered 403 `reauth_required` with the provider sign-in that completes it (src/server/oidcLeave.ts).
 */
export const DELETE = api(async ({ request, locals, cookies }) => {
  if (!locals.user) throw unauthorized();
  // Which fields are asked for depends on the account (a password, or a provider): read as an object, checked there.
  const body = await readJson(request, locals.t, jsonObject);
  await leaveFromApi(await getDb(), locals.t, cookies, locals, locals.user.id, body);
  clearSessionCookie(cookies, locals);
  return new Response(null, { status: 204 });
});
