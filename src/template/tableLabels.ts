import type { T } from '../i18n';
import { templateT } from './i18n';

/** Strings the users data table needs, passed as props (no dictionaries in the browser). */
export function tableLabels(typed: T): Record<string, string> {
  const t = templateT(typed);
  const keys = ['search', 'noData', 'noMatch', 'previous', 'next', 'edit', 'actions'];
  const out: Record<string, string> = Object.fromEntries(keys.map((k) => [k, t(`template.table.${k}`)]));
  for (const c of ['name', 'email', 'role', 'status', 'joined']) out[`col.${c}`] = t(`template.users.col.${c}`);
  for (const r of ['admin', 'editor', 'viewer']) out[`role.${r}`] = t(`template.users.role.${r}`);
  for (const s of ['active', 'invited', 'suspended']) out[`status.${s}`] = t(`template.users.status.${s}`);
  return out;
}
