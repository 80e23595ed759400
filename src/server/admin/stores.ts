/**
 * The platform's admin opens a company on Sugu: the company (tenant), its first store as diners
 * will see it, and the invitation mailed to its owner — one transaction, so none of it exists
 * without the rest, with the admin's audit lines in it. The store has no hours and no tables yet:
 * it is offered to no one until its owner sets them.
 */
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/types';
import { areas, stores, tenants } from '../db/schema';
import { ApiError } from '../http/api';
import { mailQueued } from '../mail/outbox';
import { audit } from '../staff/audit';
import { invitationLimits, writeInvitation } from '../staff/invitations';
import { storeSearchTerms } from '../db/searchTerms';
import { translatorFor, type T } from '../../i18n';
import type { AdminStoreInput, AdminStoreJson } from '../../lib/contract/admin';
import { normalisePhone } from '../../lib/validation';
import type { AdminScope } from './access';

export async function createStore(db: Db, t: T, admin: AdminScope, input: AdminStoreInput, locale: string): Promise<AdminStoreJson> {
  await invitationLimits(db, admin.userId, input.owner_email);
  const result = await db.transaction(async (tx) => {
    const slug = `c-${randomBytes(5).toString('hex')}`;
    const [tenant] = await tx.insert(tenants).values({ slug, name: input.company_name }).returning({ id: tenants.id });
    const store = {
      tenantId: tenant!.id,
      areaId: input.area_id,
      name: input.store_name,
      nameKana: input.name_kana,
      genre: input.genre,
      address: input.address,
      station: input.station,
      walkMinutes: input.walk_minutes,
      lat: input.lat,
      lng: input.lng,
      phone: normalisePhone(input.phone) ?? input.phone,
      budgetMin: input.budget_min,
      budgetMax: input.budget_max,
    };
    const [area] = await tx.select({ name: areas.name, nameKana: areas.nameKana }).from(areas).where(eq(areas.id, input.area_id));
    if (!area) throw new ApiError(400, 'validation_failed', 'validation.failed', { fields: { area_id: t('validation.invalid') } });
    // Found by keyword as every store is: its name, kana, genre (in Japanese), area and station.
    const searchTerms = storeSearchTerms({
      ...store,
      genreLabel: translatorFor('ja')(`discovery.genre.${input.genre}`),
      areaName: area.name,
      areaNameKana: area.nameKana,
      station: input.station,
    });
    const [row] = await tx
      .insert(stores)
      .values({ ...store, searchTerms })
      .returning({ id: stores.id });
    const storeId = row!.id;
    await audit(tx, admin, { action: 'store_create', storeId, targetId: storeId, after: { company: input.company_name, tenant: slug, ...store } });
    const invitation = await writeInvitation(tx, t, {
      tenantId: tenant!.id,
      tenantName: input.company_name,
      tenantSlug: slug,
      storeIds: [storeId],
      role: 'owner',
      email: input.owner_email,
      createdBy: admin.userId,
      locale,
    });
    await audit(tx, admin, {
      action: 'invitation_create',
      storeId,
      targetId: invitation.id,
      after: { email: input.owner_email, role: 'owner', store_ids: [storeId] },
    });
    return { tenant: slug, store_id: storeId, invitation };
  });
  mailQueued(db);
  return result;
}
