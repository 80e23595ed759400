/**
 * Adds a stylesheet to the page once and resolves when it has loaded (or failed: the caller goes
 * on without it). For CSS that only a lazily loaded widget needs, imported as `…css?url`: a plain
 * CSS import would make Astro link it, render-blocking, in every page that could show the widget.
 *
 * @example
 *   import leafletCss from 'leaflet/dist/leaflet.css?url';
 *   await loadStylesheet(leafletCss);
 */
export function loadStylesheet(href: string): Promise<void> {
  const existing = document.querySelector<HTMLLinkElement>(`link[rel="stylesheet"][href="${CSS.escape(href)}"]`);
  if (existing?.dataset.loaded === 'true') return Promise.resolve();
  const link = existing ?? Object.assign(document.createElement('link'), { rel: 'stylesheet', href });
  const loaded = new Promise<void>((resolve) => {
    link.addEventListener(
      'load',
      () => {
        link.dataset.loaded = 'true';
        resolve();
      },
      { once: true },
    );
    link.addEventListener('error', () => resolve(), { once: true });
  });
  if (!existing) document.head.append(link);
  return loaded;
}
