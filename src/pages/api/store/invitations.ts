import { json, readJson } from '#src/server/http/api.ts';
import { storeApi } from '#src/server/staff/http.ts';
import { getDb } from '#src/server/db/startup.ts';
import { staffScope } from '#src/server/staff/access.ts';
import { inviteStaff, ownerInvitations } from '#src/server/staff/invitations.ts';
import { invitationSchema } from '#src/lib/contract/admin.ts';

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
