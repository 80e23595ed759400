import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState } from 'react';
import { $settings, changeSetting, seedSettings, type Theme } from '../state';
import type { TemplateSettings } from '../settings';
import { CURRENCIES } from '../filters';

interface Props {
  initial: TemplateSettings & { theme: Theme };
  dateFormats: string[];
  colours: Record<string, string>;
  labels: Record<string, string>;
}

/** Settings drawer of the template (spec section 2): applies each choice at once and keeps it in cookies. */
export default function SettingsDrawer({ initial, dateFormats, colours, labels }: Props) {
  const [open, setOpen] = useState(false);
  const seeded = useRef(false);
  if (!seeded.current) {
    seedSettings(initial);
    seeded.current = true;
  }
  const s = useStore($settings);
  const panel = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const onClick = (e: MouseEvent) => {
      if ((e.target as Element).closest?.('[data-tpl-settings-open]')) setOpen(true);
    };
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setOpen(false);
    document.addEventListener('click', onClick);
    document.addEventListener('keydown', onKey);
    document.documentElement.dataset.tplSettingsReady = 'true';
    return () => {
      document.removeEventListener('click', onClick);
      document.removeEventListener('keydown', onKey);
    };
  }, []);

  useEffect(() => {
    if (open) panel.current?.querySelector<HTMLElement>('input, button')?.focus();
  }, [open]);

  // Applied to the page live; the server reads the same cookies on the next request.
  useEffect(() => {
    const shell = document.getElementById('tpl-shell');
    document.documentElement.dataset.theme = s.theme;
    if (!shell) return;
    shell.dir = s.rtl ? 'rtl' : (shell.dataset.localeDir ?? 'ltr');
    shell.dataset.rtl = String(s.rtl);
    shell.dataset.toolbarDetached = String(s.toolbarDetached);
    shell.dataset.contentBoxed = String(s.contentBoxed);
    shell.dataset.primary = s.primary;
  }, [s]);

  // Amounts and dates are rendered on the server: show them in the new format.
  const changeAndReload = (key: 'currency' | 'dateFormat', value: string) => {
    changeSetting(key, value as never);
    location.reload();
  };

  const L = (k: string) => labels[`template.settings.${k}`] ?? k;
  const toggle = (key: 'toolbarDetached' | 'contentBoxed' | 'rtl', label: string) => (
    <label className="label cursor-pointer justify-between py-2 text-base-content">
      <span>{label}</span>
      <input
        type="checkbox"
        className="toggle toggle-primary"
        checked={s[key]}
        onChange={(e) => changeSetting(key, e.target.checked)}
        data-testid={`setting-${key}`}
      />
    </label>
  );

  return (
    <>
      {open && <div className="fixed inset-0 z-40 bg-black/40" onClick={() => setOpen(false)} aria-hidden="true" />}
      <div
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-label={L('title')}
        hidden={!open}
        className="fixed inset-y-0 end-0 z-50 w-80 max-w-full overflow-y-auto bg-base-100 p-5 shadow-2xl"
        data-testid="settings-drawer"
      >
        <div className="mb-4 flex items-center justify-between">
          <h2 className="text-lg font-bold">{L('title')}</h2>
          <button type="button" className="btn btn-ghost btn-sm btn-square" aria-label={L('close')} onClick={() => setOpen(false)}>
            ✕
          </button>
        </div>
        <fieldset className="fieldset mb-4">
          <legend className="fieldset-legend">{L('theme')}</legend>
          <div className="join">
            {(['light', 'dark'] as const).map((th) => (
              <button
                key={th}
                type="button"
                className={`btn join-item btn-sm ${s.theme === th ? 'btn-primary' : ''}`}
                aria-pressed={s.theme === th}
                onClick={() => changeSetting('theme', th)}
                data-testid={`setting-theme-${th}`}
              >
                {L(th)}
              </button>
            ))}
          </div>
        </fieldset>
        <fieldset className="fieldset mb-4">
          <legend className="fieldset-legend">{L('toolbar')}</legend>
          {toggle('toolbarDetached', L('toolbarDetached'))}
          <legend className="fieldset-legend">{L('content')}</legend>
          {toggle('contentBoxed', L('contentBoxed'))}
          {toggle('rtl', L('rtl'))}
        </fieldset>
        <fieldset className="fieldset mb-4">
          <legend className="fieldset-legend">{L('primary')}</legend>
          <div className="flex flex-wrap gap-2">
            {Object.entries(colours).map(([name, hex]) => (
              <button
                key={name}
                type="button"
                className={`tpl-swatch-${name} h-9 w-9 rounded-full border-2 ${s.primary === name ? 'border-base-content' : 'border-transparent'}`}
                title={hex}
                aria-label={labels[`template.settings.colour.${name}`] ?? name}
                aria-pressed={s.primary === name}
                onClick={() => changeSetting('primary', name as TemplateSettings['primary'])}
                data-testid={`setting-primary-${name}`}
              />
            ))}
          </div>
        </fieldset>
        <label className="fieldset mb-4">
          <span className="fieldset-legend">{L('dateFormat')}</span>
          <select
            className="select select-sm"
            value={s.dateFormat}
            onChange={(e) => changeAndReload('dateFormat', e.target.value)}
            data-testid="setting-dateFormat"
          >
            {dateFormats.map((f) => (
              <option key={f} value={f}>
                {f}
              </option>
            ))}
          </select>
        </label>
        <label className="fieldset">
          <span className="fieldset-legend">{L('currency')}</span>
          <select className="select select-sm" value={s.currency} onChange={(e) => changeAndReload('currency', e.target.value)} data-testid="setting-currency">
            {Object.values(CURRENCIES).map((c) => (
              <option key={c.label} value={c.label}>
                {c.label} ({c.currencySymbol})
              </option>
            ))}
          </select>
        </label>
      </div>
    </>
  );
}
