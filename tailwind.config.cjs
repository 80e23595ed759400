// The spec's light and dark colours (section 9) as daisyUI themes. Themes live here only:
// CSS @plugin theme blocks would let daisyUI's built-in `light`/`dark` win. daisyUI itself is
// loaded by each stylesheet (src/styles/product.css, src/template/template.css) with `themes: false`,
// and each stylesheet names its own sources, so this file lists none.
const theme = require('daisyui/theme');
const plugin = (m) => m.default ?? m;

/** Readable text on the brand colours: all of them are light enough for near-black text (≥ 4.5:1). */
const ink = '#0b1620';

/** @type {import('tailwindcss').Config} */
module.exports = {
  plugins: [
    plugin(theme)({
      name: 'light',
      default: true,
      'color-scheme': 'light',
      '--color-base-100': '#ffffff',
      '--color-base-200': '#f2f5f8',
      '--color-base-300': '#e1e7ed',
      '--color-base-content': '#1b2631',
      '--color-primary': '#0096c7',
      '--color-primary-content': ink,
      '--color-secondary': '#a0b9c8',
      '--color-secondary-content': ink,
      '--color-accent': '#048ba8',
      '--color-accent-content': ink,
      '--color-neutral': '#1b2631',
      '--color-neutral-content': '#ffffff',
      '--color-info': '#2196F3',
      '--color-info-content': ink,
      '--color-success': '#06d6a0',
      '--color-success-content': ink,
      '--color-warning': '#ffd166',
      '--color-warning-content': ink,
      '--color-error': '#ef476f',
      '--color-error-content': ink,
      // Small text in the brand and status colours falls below 4.5:1 on white: src/styles/shared.css
      // sets such text in these deeper shades of the same hues. The dark theme needs none.
      '--ink-primary': '#00698c',
      '--ink-accent': '#036a80',
      '--ink-error': '#b3173f',
      '--ink-success': '#04785a',
      '--ink-info': '#0b5fa8',
      '--ink-warning': '#845600',
      '--ink-alert-soft': '#1b2631',
      '--radius-selector': '1rem',
      '--radius-field': '0.5rem',
      '--radius-box': '0.75rem',
      '--size-selector': '0.25rem',
      '--size-field': '0.275rem',
      '--border': '1px',
      '--depth': '1',
      '--noise': '0',
    }),
    plugin(theme)({
      name: 'dark',
      // Where the diner has chosen no theme (no data-theme), a device set to dark gets this one.
      prefersdark: true,
      'color-scheme': 'dark',
      '--color-base-100': '#05090c',
      '--color-base-200': '#111b27',
      '--color-base-300': '#1c2a3a',
      '--color-base-content': '#e6edf3',
      '--color-primary': '#0096c7',
      '--color-primary-content': ink,
      '--color-secondary': '#829099',
      '--color-secondary-content': ink,
      '--color-accent': '#82B1FF',
      '--color-accent-content': ink,
      '--color-neutral': '#2a3a4c',
      '--color-neutral-content': '#e6edf3',
      '--color-info': '#2196F3',
      '--color-info-content': ink,
      '--color-success': '#4CAF50',
      '--color-success-content': ink,
      '--color-warning': '#FFC107',
      '--color-warning-content': ink,
      '--color-error': '#FF5252',
      '--color-error-content': ink,
      // The light theme's deeper text shades do not apply here (the light theme's root rule matches too).
      '--ink-primary': 'initial',
      '--ink-accent': 'initial',
      '--ink-error': 'initial',
      '--ink-success': 'initial',
      '--ink-info': 'initial',
      '--ink-warning': 'initial',
      '--ink-alert-soft': 'initial',
      '--radius-selector': '1rem',
      '--radius-field': '0.5rem',
      '--radius-box': '0.75rem',
      '--size-selector': '0.25rem',
      '--size-field': '0.275rem',
      '--border': '1px',
      '--depth': '1',
      '--noise': '0',
    }),
  ],
};
