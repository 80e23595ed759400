/**
 * The four icon libraries of the UI preview (spec section 7): their stylesheets on the public CDN,
 * loaded only on the /ui/icons pages. cdn.jsdelivr.net is allowed by the CSP's style-src and font-src.
 */
export const ICON_LIBRARIES = {
  boxicons: {
    name: 'Boxicons',
    stylesheet: 'https://cdn.jsdelivr.net/npm/boxicons@2.1.4/css/boxicons.min.css',
    icons: ['home', 'user', 'envelope', 'cart', 'calendar', 'bell', 'search', 'heart', 'star', 'cog', 'trash', 'map'],
    markup: (name: string) => ({ tag: 'i', className: `bx bx-${name}`, text: '' }),
  },
  'font-awesome': {
    name: 'Font Awesome',
    stylesheet: 'https://cdn.jsdelivr.net/npm/@fortawesome/fontawesome-free@6.7.2/css/all.min.css',
    icons: ['house', 'user', 'envelope', 'cart-shopping', 'calendar', 'bell', 'magnifying-glass', 'heart', 'star', 'gear', 'trash', 'map'],
    markup: (name: string) => ({ tag: 'i', className: `fa-solid fa-${name}`, text: '' }),
  },
  'material-design': {
    name: 'Material Icons',
    stylesheet: 'https://cdn.jsdelivr.net/npm/material-icons@1.13.14/iconfont/material-icons.min.css',
    icons: ['home', 'person', 'mail', 'shopping_cart', 'event', 'notifications', 'search', 'favorite', 'star', 'settings', 'delete', 'map'],
    markup: (name: string) => ({ tag: 'span', className: 'material-icons', text: name }),
  },
  'material-design-icons': {
    name: 'Material Design Icons',
    stylesheet: 'https://cdn.jsdelivr.net/npm/@mdi/font@7.4.47/css/materialdesignicons.min.css',
    icons: ['home', 'account', 'email', 'cart', 'calendar', 'bell', 'magnify', 'heart', 'star', 'cog', 'delete', 'map'],
    markup: (name: string) => ({ tag: 'i', className: `mdi mdi-${name}`, text: '' }),
  },
} as const;

export type IconLibrary = keyof typeof ICON_LIBRARIES;

/** Stylesheets a /ui/icons page needs: its own library, or all four on the usage page. */
export function stylesheetsFor(page: string): string[] {
  if (page === 'usage') return Object.values(ICON_LIBRARIES).map((l) => l.stylesheet);
  return page in ICON_LIBRARIES ? [ICON_LIBRARIES[page as IconLibrary].stylesheet] : [];
}
