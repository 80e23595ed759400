/// <reference types="astro/client" />

declare namespace App {
  interface Locals {
    requestId: string;
    /** The application context (src/server/app.ts): configuration, database, background jobs. */
    app: import('./server/app').AppContext;
    /** The diner site, or the store host (its own pages, session cookie and origin rule). */
    site: import('./server/sessions').Site;
    /** The client's address, through trusted proxies only (src/server/http/client.ts). */
    clientAddress: string;
    /** The browser reached the site over https: cookies are Secure and HSTS is sent. */
    secure: boolean;
    locale: import('./i18n/locales').Locale;
    t: import('./i18n').T;
    dir: 'ltr' | 'rtl';
    /** The diner's chosen theme; null until one is chosen, when the device's setting applies. */
    theme: 'light' | 'dark' | null;
    user: import('./server/sessions').SessionUser | null;
    sessionId: string | null;
    flash: import('./lib/flash').Flash | null;
    /** The favourite heart's shape has been sent on this page (src/components/FavouriteToggle.astro). */
    heartSent?: boolean;
  }
}

interface ImportMetaEnv {
  readonly PUBLIC_MAPS_KEY?: string;
  readonly PUBLIC_ANALYTICS_ID?: string;
}
