import { api, json, readJson, unauthorized } from '../../server/http/api';
import { getAccount, leave, leaveSchema, profileSchema, updateAccount } from '../../server/account';
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

/** Leaves (退会) with `{password, confirm: true}`; signs out. */
export const DELETE = api(async ({ request, locals, cookies }) => {
  if (!locals.user) throw unauthorized();
  const { password } = await readJson(request, locals.t, leaveSchema);
  await leave(await getDb(), locals.t, locals.user.id, password);
  clearSessionCookie(cookies, locals);
  return new Response(null, { status: 204 });
});
