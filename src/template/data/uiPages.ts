/** Every UI preview page of the spec (section 2), by group. The /ui routes accept only these. */
export const UI_GROUPS = {
  components: [
    'alerts',
    'badges',
    'bottom-navigation',
    'bottom-sheets',
    'buttons',
    'calendars',
    'cards',
    'carousels',
    'date-pickers',
    'dialogs',
    'expansion-panels',
    'floating-action-buttons',
    'list-item-groups',
    'lists',
    'menus',
    'navigation-drawers',
    'paginations',
    'ratings',
    'snackbars',
    'steppers',
    'system-bars',
    'tabs',
    'timelines',
    'tooltips',
  ],
  tables: ['data-tables', 'simple-tables'],
  forms: [
    'autocompletes',
    'combobox',
    'file-inputs',
    'forms',
    'inputs',
    'overflow-buttons',
    'selection-controls',
    'selects',
    'sliders',
    'text-fields',
    'textarea',
  ],
  icons: ['boxicons', 'font-awesome', 'material-design', 'material-design-icons', 'usage'],
  charts: ['apex-charts', 'echarts', 'sparklines'],
  maps: ['google-maps'],
  filters: ['capitalize', 'format-currency', 'format-date', 'lowercase', 'uppercase'],
  styles: ['cursor', 'position', 'sizing'],
} as const;

export type UiGroup = keyof typeof UI_GROUPS;

export function isUiPage(group: string | undefined, page: string | undefined): group is UiGroup {
  return !!group && !!page && Object.hasOwn(UI_GROUPS, group) && (UI_GROUPS[group as UiGroup] as readonly string[]).includes(page);
}

export const UI_SINGLE_PAGES = ['colors', 'grids'] as const;
