import { api, idParam, json } from '#src/server/http/api.ts';
import { getDb } from '#src/server/db/startup.ts';
import { getHold } from '#src/server/watches/holds.ts';
import { holdAsker } from '#src/server/watches/holdHttp.ts';

/** The asker's held start (someone else's is 404): where it stands and until when. */
export const GET = api(async (context) => {
  const { locals, request, cookies } = context;
  return json(await getHold(await getDb(), idParam(context.params.id), holdAsker(locals, request, cookies)));
});
