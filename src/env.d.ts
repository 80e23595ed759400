/// <reference types="astro/client" />

declare namespace App {
  interface Locals {
    requestId: string;
    locale: import('./i18n/locales').Locale;
    t: import('./i18n').T;
    dir: 'ltr' | 'rtl';
    theme: 'light' | 'dark';
    user: import('./server/sessions').SessionUser | null;
    sessionId: string | null;
    flash: import('./lib/flash').Flash | null;
  }
}

interface ImportMetaEnv {
  readonly PUBLIC_MAPS_KEY?: string;
  readonly PUBLIC_ANALYTICS_ID?: string;
}
