import { api, readJson } from '../../../server/http/api';
import { resetPassword, resetSchema } from '../../../server/auth';
import { getDb } from '../../../server/db/startup';
import { clearSessionCookie } from '../../../server/sessions';

/** 204 and every session of the user ended; 400 `invalid_link` for a bad, used or expired link. */
export const POST = api(async ({ request, locals, cookies }) => {
  const { token, password } = await readJson(request, locals.t, resetSchema);
  await resetPassword(await getDb(), token, password);
  clearSessionCookie(cookies, locals);
  return new Response(null, { status: 204 });
});
