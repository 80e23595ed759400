import { api, readJson } from '#src/server/http/api.ts';
import { resetPassword, resetSchema } from '#src/server/auth.ts';
import { getDb } from '#src/server/db/startup.ts';
import { clearSessionCookie } from '#src/server/sessions.ts';

/** 204 and every session of the user ended; 400 `invalid_link` for a bad, used or expired link. */
export const POST = api(async ({ request, locals, cookies }) => {
  const { token, password } = await readJson(request, locals.t, resetSchema);
  await resetPassword(await getDb(), token, password);
  clearSessionCookie(cookies, locals);
  return new Response(null, { status: 204 });
});
