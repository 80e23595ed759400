/**
 * The banner screen's plain forms: schedule a banner, change it, delete it. Each form's fields are
 * read as the store API's JSON would carry them and handed to the same service, so no rule lives
 * here twice; a refusal comes back with what was typed and each field's error.
 */
import type { Db } from '../db/types';
import { ApiError, notFound, translate, validate } from '../http/api';
import type { Flash } from '../../lib/flash';
import type { T } from '../../i18n';
import { bannerPatchSchema, bannerSchema } from '../../lib/contract/staff';
import { parseId } from '../../lib/validation';
import type { StaffScope } from './access';
import { createBanner, deleteBanner, updateBanner } from './banners';
import { withinStaffLimits } from './limits';

/** The form's fields as typed. */
export interface BannerValues {
  title: string;
  body: string;
  link_to_store: boolean;
  starts_on: string;
  ends_on: string;
}

/** A refused banner form: drawn again with what was typed and each field's error. */
export interface BannerRefusal {
  /** The banner being changed; null for a new one. */
  id: number | null;
  values: BannerValues;
  errors: Record<string, string>;
  message: string;
  status: number;
}

/** What the page does next: redirect with a message, draw the form again, or answer 404. */
export type BannerOutcome = { flash: Flash } | { refusal: BannerRefusal } | { notFound: true };

/** Handles one post of the banner screen at `storeId` (already the staff's). */
export async function bannerPost(db: Db, scope: StaffScope, storeId: number, form: FormData | null, t: T): Promise<BannerOutcome> {
  const text = (key: string) => {
    const value = form?.get(key);
    return typeof value === 'string' ? value : '';
  };
  const doing = text('action');
  const id = doing === 'create' ? null : parseId(text('banner'));
  const values: BannerValues = {
    title: text('title'),
    body: text('body'),
    link_to_store: form?.get('link_to_store') === 'on',
    starts_on: text('starts_on'),
    ends_on: text('ends_on'),
  };
  const body = values.body.trim();
  const done = (message: string): BannerOutcome => ({ flash: { kind: 'success', message } });
  try {
    if (doing === 'create') {
      const input = validate(t, bannerSchema, { store_id: storeId, ...values, body });
      await withinStaffLimits(db, scope, () => createBanner(db, translate(t), scope, input));
      return done(t('storehost.banners.created'));
    }
    if (id === null) throw notFound();
    if (doing === 'delete') {
      await withinStaffLimits(db, scope, () => deleteBanner(db, scope, id));
      return done(t('storehost.banners.deleted'));
    }
    // The form sends every field: all of them are the banner as it should be.
    const input = validate(t, bannerPatchSchema, { ...values, body });
    await withinStaffLimits(db, scope, () => updateBanner(db, translate(t), scope, id, input));
    return done(t('storehost.banners.updated'));
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.status === 404) return { notFound: true };
    if (doing === 'delete') return { flash: { kind: 'error', message: t(error.messageKey, error.options.params) } };
    return { refusal: { id, values, errors: error.options.fields ?? {}, message: t(error.messageKey, error.options.params), status: error.status } };
  }
}
