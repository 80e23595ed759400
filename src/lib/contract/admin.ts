/**
 * The platform admin's and the invitations' calls: a company with its first store and its owner's
 * invitation (`POST /api/admin/stores`), the companies with their stores and pending invitations
 * (`GET /api/admin/tenants`), further staff invited by the owner (`POST /api/store/invitations`,
 * listed by `GET`), an invitation withdrawn (`DELETE /api/store/invitations/{id}` by the owner,
 * `DELETE /api/admin/invitations/{id}` by the admin) and one taken up (`POST /api/store/signup`).
 */
import * as z from 'zod/mini';
import { GENRES, INVITATION_ROLES } from './enums';
import { emailField, idSchema, kanaField, phoneField, requiredText } from './fields';
import { ACCOUNT_NAME_MAX, BUDGET_MAX, LATITUDE_MAX, LONGITUDE_MAX, PAGE_MAX, PAGE_SIZE, PAGE_SIZE_MAX } from './limits';

/** A company's name and a store's name and address, as long as anyone writes them. */
export const COMPANY_NAME_MAX = 100;
export const STORE_NAME_MAX = 100;
export const ADDRESS_MAX = 200;
export const STATION_MAX = 50;
/** The walk from the station, in whole minutes (the listing sorts on it). */
export const WALK_MINUTES_MAX = 60;
/** Characters a budget (up to BUDGET_MAX yen) and a coordinate (`-139.7016…`) take in a form field. */
export const BUDGET_INPUT_MAX = String(BUDGET_MAX).length;
export const COORDINATE_INPUT_MAX = 20;
/** An invitation link is good for this many days, once. */
export const INVITATION_DAYS = 7;

const whole = (min: number, max: number) => z.int().check(z.minimum(min), z.maximum(max));
const coordinate = (max: number) => z.number().check(z.minimum(-max), z.maximum(max));

/**
 * `POST /api/admin/stores`: a company, its first store (as diners will see it; its hours and tables
 * are the owner's to set) and the invitation mailed to its owner, all or nothing.
 */
export const adminStoreSchema = z
  .object({
    company_name: requiredText(COMPANY_NAME_MAX),
    store_name: requiredText(STORE_NAME_MAX),
    name_kana: kanaField,
    genre: z.enum(GENRES),
    area_id: idSchema,
    address: requiredText(ADDRESS_MAX),
    station: requiredText(STATION_MAX),
    walk_minutes: whole(0, WALK_MINUTES_MAX),
    phone: phoneField,
    budget_min: whole(0, BUDGET_MAX),
    budget_max: whole(0, BUDGET_MAX),
    lat: coordinate(LATITUDE_MAX),
    lng: coordinate(LONGITUDE_MAX),
    owner_email: emailField,
  })
  .check(z.refine((v) => v.budget_max >= v.budget_min, { message: 'admin.validation.budget', path: ['budget_max'] }));

/** `POST /api/store/invitations`: the owner invites a member of staff to all of the company's stores. */
export const invitationSchema = z.object({ email: emailField });

/** What an invitation call answers: whom it was sent to, for which company and stores, until when. */
export const invitationJsonSchema = z.object({
  id: z.int(),
  email: z.string(),
  role: z.enum(INVITATION_ROLES),
  tenant: z.string(),
  store_ids: z.array(z.int()),
  expires_at: z.string(),
});

/** `GET /api/store/invitations`: the owner's company's invitations still waiting to be taken up, soonest to expire first. */
export const invitationListSchema = z.object({ items: z.array(invitationJsonSchema) });

/** One company as the admin sees it: its stores and its pending invitations. */
export const adminTenantJsonSchema = z.object({
  tenant: z.string(),
  name: z.string(),
  created_at: z.string(),
  stores: z.array(z.object({ id: z.int(), name: z.string() })),
  invitations: z.array(invitationJsonSchema),
});

/** A whole number written in a query (`?page=2`) between `min` and `max`, as a number. */
const queryCount = (min: number, max: number) =>
  z.pipe(
    z.string().check(z.refine((v) => /^\d{1,6}$/.test(v) && Number(v) >= min && Number(v) <= max, { message: 'validation.invalid' })),
    z.transform(Number),
  );

/** `GET /api/admin/tenants`' query: which page of the companies, and how many on one (as the store listing pages). */
export const adminTenantQuerySchema = z.object({ page: z.optional(queryCount(1, PAGE_MAX)), per_page: z.optional(queryCount(1, PAGE_SIZE_MAX)) });

/** `GET /api/admin/tenants`: one page of the companies on Sugu, newest first, and how many there are in all. */
export const adminTenantListSchema = z.object({ items: z.array(adminTenantJsonSchema), page: z.int(), per_page: z.int(), total: z.int() });

/** Companies on one page of the admin's list when the query names no size. */
export const ADMIN_TENANT_PAGE_SIZE = PAGE_SIZE;

/** `POST /api/admin/stores`' answer: the company, its store and the owner's invitation. */
export const adminStoreJsonSchema = z.object({
  tenant: z.string(),
  store_id: z.int(),
  invitation: invitationJsonSchema,
});

/** The invitee's own details; the e-mail address is the invitation's. */
export const signupFieldsSchema = z.object({
  name: requiredText(ACCOUNT_NAME_MAX),
  name_kana: kanaField,
});

export type AdminStoreInput = z.infer<typeof adminStoreSchema>;
export type InvitationInput = z.infer<typeof invitationSchema>;
export type InvitationJson = z.infer<typeof invitationJsonSchema>;
export type AdminStoreJson = z.infer<typeof adminStoreJsonSchema>;
export type AdminTenantJson = z.infer<typeof adminTenantJsonSchema>;
export type AdminTenantList = z.infer<typeof adminTenantListSchema>;
