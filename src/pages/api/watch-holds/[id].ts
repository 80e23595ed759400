import { api, idParam, json } from '../../../server/http/api';
import { getDb } from '../../../server/db/startup';
import { getHold } from '../../../server/watches/holds';
import { holdAsker } from '../../../server/watches/holdHttp';

/** The asker's held start (someone else's is 404): where it stands and until when. */
export const GET = api(async (context) => {
  const { locals, request, cookies } = context;
  return json(await getHold(await getDb(), idParam(context.params.id), holdAsker(locals, request, cookies)));
});
