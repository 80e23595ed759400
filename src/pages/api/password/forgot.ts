import { api, readJson } from '../../../server/http/api';
import { forgotSchema, requestPasswordReset } from '../../../server/auth';
import { getDb } from '../../../server/db/startup';
import { publicOrigin } from '../../../server/config';

/** 202 whether or not the address has an account, so the answer reveals nothing. */
export const POST = api(async ({ request, locals }) => {
  const { email } = await readJson(request, locals.t, forgotSchema);
  await requestPasswordReset(await getDb(), locals.t, email, { ip: locals.clientAddress, origin: publicOrigin(), locale: locals.locale });
  return new Response(null, { status: 202 });
});
