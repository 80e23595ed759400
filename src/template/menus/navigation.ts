import { UI_GROUPS, type UiGroup } from '../data/uiPages';

/** The spec's menu item (section 3). `text` is a translation key; `href` is for links that leave the app. */
export interface MenuItem {
  icon?: string;
  key?: string;
  text: string;
  link?: string;
  regex?: RegExp;
  items?: MenuItem[];
  disabled?: boolean;
  href?: string;
  target?: string;
}

export interface MenuGroup {
  text: string;
  items: MenuItem[];
}

const uiGroup = (group: UiGroup, icon: string): MenuItem => ({
  icon,
  key: `template.ui.group.${group}`,
  text: `template.ui.group.${group}`,
  regex: new RegExp(`^/ui/${group}/`),
  items: UI_GROUPS[group].map((page) => ({ text: `template.ui.page.${page}`, link: `/ui/${group}/${page}` })),
});

export const DOCUMENTATION_URL = 'https://daisyui.com/components/';
export const TEMPLATE_VERSION = '1.3.0';

/** Side menu groups of the spec: Dashboard; Apps; UI Theme Preview; Pages; Other. */
export const NAVIGATION: MenuGroup[] = [
  {
    text: 'template.menu.dashboard',
    items: [{ icon: 'chart', key: 'template.menu.analytics', text: 'template.menu.analytics', link: '/dashboard/analytics' }],
  },
  {
    text: 'template.menu.apps',
    items: [
      { icon: 'mail', key: 'template.menu.email', text: 'template.menu.email', link: '/apps/email', regex: /^\/apps\/email/ },
      { icon: 'chat', key: 'template.menu.chat', text: 'template.menu.chat', link: '/apps/chat', regex: /^\/apps\/chat/ },
      { icon: 'check', key: 'template.menu.todo', text: 'template.menu.todo', link: '/apps/todo' },
      { icon: 'board', key: 'template.menu.board', text: 'template.menu.board', link: '/apps/board' },
      {
        icon: 'cart',
        key: 'template.menu.ecommerce',
        text: 'template.menu.ecommerce',
        regex: /^\/ecommerce\//,
        items: [
          { text: 'template.menu.productList', link: '/ecommerce/list' },
          { text: 'template.menu.productDetails', link: '/ecommerce/product-details' },
          { text: 'template.menu.orders', link: '/ecommerce/orders' },
          { text: 'template.menu.cart', link: '/ecommerce/cart' },
        ],
      },
      {
        icon: 'users',
        key: 'template.menu.users',
        text: 'template.menu.users',
        regex: /^\/users\//,
        items: [
          { text: 'template.menu.usersList', link: '/users/list' },
          { text: 'template.menu.usersEdit', link: '/users/edit' },
        ],
      },
    ],
  },
  {
    text: 'template.menu.uiPreview',
    items: [
      uiGroup('components', 'grid'),
      uiGroup('tables', 'table'),
      uiGroup('forms', 'form'),
      uiGroup('icons', 'star'),
      uiGroup('charts', 'chart'),
      uiGroup('maps', 'map'),
      uiGroup('filters', 'filter'),
      uiGroup('styles', 'brush'),
      { icon: 'palette', key: 'template.ui.page.colors', text: 'template.ui.page.colors', link: '/ui/colors' },
      { icon: 'grid', key: 'template.ui.page.grids', text: 'template.ui.page.grids', link: '/ui/grids' },
    ],
  },
  {
    text: 'template.menu.pages',
    items: [
      {
        icon: 'lock',
        key: 'template.menu.auth',
        text: 'template.menu.auth',
        regex: /^\/auth\//,
        items: [
          { text: 'template.menu.signin', link: '/auth/signin' },
          { text: 'template.menu.signup', link: '/auth/signup' },
          { text: 'template.menu.forgot', link: '/auth/forgot-password' },
          { text: 'template.menu.verifyEmail', link: '/auth/verify-email' },
        ],
      },
      {
        icon: 'alert',
        key: 'template.menu.errors',
        text: 'template.menu.errors',
        regex: /^\/error/,
        items: [
          { text: 'template.menu.notFound', link: '/error/not-found' },
          { text: 'template.menu.unexpected', link: '/error/unexpected' },
        ],
      },
      {
        icon: 'tool',
        key: 'template.menu.utility',
        text: 'template.menu.utility',
        regex: /^\/utility\//,
        items: [
          { text: 'template.menu.maintenance', link: '/utility/maintenance' },
          { text: 'template.menu.comingSoon', link: '/utility/coming-soon' },
          { text: 'template.menu.help', link: '/utility/help' },
        ],
      },
    ],
  },
  {
    text: 'template.menu.other',
    items: [
      { icon: 'file', key: 'template.menu.blank', text: 'template.menu.blank', link: '/blank' },
      {
        icon: 'layers',
        key: 'template.menu.levels',
        text: 'template.menu.levels',
        items: [
          { text: 'template.menu.level2', link: '/blank?level=2' },
          {
            text: 'template.menu.level2Group',
            items: [
              { text: 'template.menu.level3a', link: '/blank?level=3a' },
              { text: 'template.menu.level3b', link: '/blank?level=3b' },
            ],
          },
        ],
      },
      { icon: 'ban', key: 'template.menu.disabled', text: 'template.menu.disabled', disabled: true },
      { icon: 'book', key: 'template.menu.docs', text: 'template.menu.docs', href: DOCUMENTATION_URL, target: '_blank' },
    ],
  },
];

/** Toolbar apps quick menu (spec section 3: icon, text or title, key, subtitle, link). */
export const TOOLBAR_APPS = [
  { icon: 'mail', key: 'inbox', title: 'template.apps.inbox', subtitle: 'template.apps.inboxSub', link: '/apps/email/inbox' },
  { icon: 'check', key: 'tasks', title: 'template.apps.tasks', subtitle: 'template.apps.tasksSub', link: '/apps/todo' },
  { icon: 'chat', key: 'chat', title: 'template.apps.chat', subtitle: 'template.apps.chatSub', link: '/apps/chat/channel/general' },
  { icon: 'board', key: 'board', title: 'template.apps.board', subtitle: 'template.apps.boardSub', link: '/apps/board' },
] as const;

export const USER_MENU = [
  { icon: 'user', key: 'profile', text: 'template.user.profile', link: '/users/edit' },
  { icon: 'mail', key: 'email', text: 'template.menu.email', link: '/apps/email' },
  { icon: 'check', key: 'todo', text: 'template.menu.todo', link: '/apps/todo' },
  { icon: 'chat', key: 'chat', text: 'template.menu.chat', link: '/apps/chat' },
  { icon: 'board', key: 'board', text: 'template.menu.board', link: '/apps/board' },
] as const;

/** Is this item (or one of its children) the current page? */
export function isActive(item: MenuItem, path: string): boolean {
  if (item.link && item.link.split('?')[0] === path) return true;
  if (item.regex?.test(path)) return true;
  return item.items?.some((child) => isActive(child, path)) ?? false;
}

/** Flat list of reachable pages, for the toolbar search. */
export function flatten(groups: MenuGroup[]): { text: string; link: string }[] {
  const out: { text: string; link: string }[] = [];
  const walk = (items: MenuItem[]) => {
    for (const i of items) {
      if (i.link && !i.disabled) out.push({ text: i.text, link: i.link });
      if (i.items) walk(i.items);
    }
  };
  for (const g of groups) walk(g.items);
  return out;
}
