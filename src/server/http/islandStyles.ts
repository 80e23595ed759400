/**
 * Build step: Astro writes `<style>astro-island,…{display:contents}</style>` into the body just
 * before the first island, and HTML allows a `<style>` in the body only as its parent's first
 * child, so nearly every page failed validation. The rule lives in the stylesheets instead
 * (src/styles/shared.css), and this Vite plugin drops the inline copy from Astro's renderer when
 * the server is built (astro.config.mjs). The build fails if the renderer's code no longer has
 * the expected shape, rather than shipping pages with the style silently back.
 */
import type { Plugin } from 'vite';

const RENDERER = /[\\/]astro[\\/]dist[\\/]runtime[\\/]server[\\/]scripts\.js$/;
// biome-ignore lint/suspicious/noTemplateCurlyInString: the text Astro's renderer holds, `${ISLAND_STYLES}` included, matched as written.
const INLINE_STYLE = '<style>${ISLAND_STYLES}</style>';

export function islandStylesInStylesheet(): Plugin {
  return {
    name: 'sugu:island-styles-in-stylesheet',
    enforce: 'pre',
    transform(code, id) {
      if (!RENDERER.test(id.split('?')[0]!)) return null;
      if (!code.includes(INLINE_STYLE))
        throw new Error(`${id}: Astro's island <style> is no longer written as ${INLINE_STYLE}; update src/server/http/islandStyles.ts`);
      return { code: code.replace(INLINE_STYLE, ''), map: null };
    },
  };
}
