/**
 * HTML form posts to pages (the no-JavaScript path): parsed with the API's schema (the body's size
 * is capped for every route by the HTTP edge, src/server/http/edge.ts),
 * giving back what was typed and one translated message per field so the page can re-render.
 */
import * as z from 'zod/mini';
import type { T } from '../../i18n';
import { ApiError, asDatabaseAway, validationError } from './api';

export type FormResult<S extends z.core.$ZodType> = { ok: true; data: z.infer<S>; values: Record<string, string> } | FormFailure;

export interface FormFailure {
  ok: false;
  status: number;
  values: Record<string, string>;
  fields: Record<string, string>;
  message?: string;
}

/** Field values as typed (passwords are never echoed back), checkboxes as booleans for the schema. */
export async function readForm<S extends z.core.$ZodType>(request: Request, t: T, schema: S, checkboxes: readonly string[] = []): Promise<FormResult<S>> {
  const form = await request.formData().catch(() => null);
  if (!form) return { ok: false, status: 400, values: {}, fields: {}, message: t('validation.invalidJson') };
  const raw: Record<string, unknown> = {};
  const values: Record<string, string> = {};
  for (const [key, value] of form) {
    if (typeof value !== 'string' || key in raw) continue;
    raw[key] = value;
    if (!/password/.test(key)) values[key] = value;
  }
  for (const key of checkboxes) {
    raw[key] = raw[key] === 'on' || raw[key] === 'true';
    values[key] = raw[key] ? 'on' : '';
  }
  const result = z.safeParse(schema, raw);
  if (result.success) return { ok: true, data: result.data, values };
  return { ok: false, status: 400, values, fields: validationError(t, result.error).options.fields ?? {} };
}

/** An ApiError from a service, as the page shows it: field messages, or one message for the form. */
export function formError(t: T, error: unknown, values: Record<string, string>): FormFailure {
  // The database away: the form again with what was typed and the message, as a 503.
  error = asDatabaseAway(error);
  if (!(error instanceof ApiError)) throw error;
  const fields = error.options.fields ?? {};
  return { ok: false, status: error.status, values, fields, message: Object.keys(fields).length ? undefined : t(error.messageKey) };
}

/**
 * A page's whole form post: read and validate, then run `action` with the data. Gives back what
 * was typed, and on failure the field messages or one message with its status, for the page to
 * show again. Anything but an ApiError is a bug and goes on to the 500 page.
 */
export async function submitForm<S extends z.core.$ZodType>(
  request: Request,
  t: T,
  schema: S,
  action: (data: z.infer<S>) => Promise<unknown>,
  checkboxes: readonly string[] = [],
): Promise<{ ok: true; values: Record<string, string> } | FormFailure> {
  const form = await readForm(request, t, schema, checkboxes);
  if (!form.ok) return form;
  try {
    await action(form.data);
    return { ok: true, values: form.values };
  } catch (error) {
    return formError(t, error, form.values);
  }
}
