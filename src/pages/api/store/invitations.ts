import { json, readJson } from '../../../server/http/api';
import { storeApi } from '../../../server/staff/http';
import { getDb } from '../../../server/db/startup';
import { staffScope } from '../../../server/staff/access';
import { inviteStaff, ownerInvitations } from '../../../server/staff/invitations';
import { invitationSchema } from '../../../lib/contract/admin';

/** The company's invitations still waiting to be taken up, soonest to expire first; the owner's alone (403 for other staff). */
export const GET = storeApi(async ({ locals }) => {
  const db = await getDb();
  const scope = await staffScope(db, locals.user);
  return json({ items: await ownerInvitations(db, scope) });
});

/** The company's owner invites a member of staff to its stores (mailed); 403 for other staff. */
export const POST = storeApi(async ({ locals, request }) => {
  const db = await getDb();
  const scope = await staffScope(db, locals.user);
  const input = await readJson(request, locals.t, invitationSchema);
  return json(await inviteStaff(db, locals.t, scope, input.email, locals.locale), { status: 201 });
});
