/**
 * The results map (src/components/ResultsMap.astro), loaded only when it is opened: one marker per
 * card in #store-results (its name, and its first start as a link that books it), fitted to them
 * all, redrawn whenever the results are swapped in place (a re-sort once the position is known).
 * Tiles come from MAP_TILE_URL; when they cannot load, the markers still show and a notice says so.
 * Pins closer than a finger's width are clustered (leaflet.markercluster): a tap on the cluster zooms
 * in, or spreads them out (spiderfies) where zooming cannot separate them, so every store can be
 * tapped. The diner's position, when known, is a "you are here" marker, and the view is fitted so
 * that every pin, its head included, is inside.
 */
import L from 'leaflet';
import leafletCss from 'leaflet/dist/leaflet.css?url';
import clusterCss from 'leaflet.markercluster/dist/MarkerCluster.css?url';
import clusterThemeCss from 'leaflet.markercluster/dist/MarkerCluster.Default.css?url';
import { $postLocation } from '../state/location';
import { loadStylesheet } from '../lib/stylesheet';
import { mapPin } from '../lib/mapPin';
import { mapControls, type MapLabels } from '../lib/mapControls';

interface Options extends MapLabels {
  tileUrl: string;
  region: string;
  tilesFailed: string;
  youAreHere: string;
  /** A cluster's name, with `{{count}}` for its stores: the pin is a button, and a button needs a name. */
  cluster: string;
}

/** The pin stands 41 px above the point it marks: the view keeps that much room above the top one. */
const PIN_HEIGHT = 41;
const EDGE = 24;

/** What a card says about its store, for its marker. */
function storesShown() {
  return [...document.querySelectorAll<HTMLElement>('#store-results article[data-store-id]')].flatMap((card) => {
    const lat = Number(card.dataset.lat);
    const lng = Number(card.dataset.lng);
    const link = card.querySelector<HTMLAnchorElement>('[data-store-link]');
    if (!Number.isFinite(lat) || !Number.isFinite(lng) || !link || card.closest('[hidden]')) return [];
    const start = card.querySelector<HTMLAnchorElement>('a[data-live-slot]:not([hidden])');
    return [
      {
        id: card.dataset.storeId!,
        lat,
        lng,
        name: link.textContent?.trim() ?? '',
        href: link.href,
        start: start ? { href: start.href, text: start.textContent?.trim() ?? '' } : null,
      },
    ];
  });
}

export async function openResultsMap(box: HTMLElement, options: Options): Promise<{ show: () => void }> {
  await Promise.all([loadStylesheet(leafletCss), loadStylesheet(clusterCss), loadStylesheet(clusterThemeCss)]);
  // The plugin extends the global L that Leaflet's bundle defines.
  (globalThis as { L?: typeof L }).L ??= L;
  await import('leaflet.markercluster');
  const view = document.createElement('div');
  view.className = 'h-full w-full bg-base-200';
  view.setAttribute('role', 'region');
  view.setAttribute('aria-label', options.region);
  box.append(view);
  const map = L.map(view, { scrollWheelZoom: false, zoomControl: false });
  mapControls(L, map, options);
  const tiles = L.tileLayer(options.tileUrl, { maxZoom: 19, attribution: '© OpenStreetMap contributors' });
  tiles.once('tileerror', () => {
    const notice = Object.assign(document.createElement('p'), { textContent: options.tilesFailed, role: 'status' });
    notice.className = 'absolute inset-x-2 bottom-2 z-[1000] rounded bg-base-100/95 px-3 py-2 text-xs shadow';
    box.classList.add('relative');
    box.append(notice);
  });
  tiles.addTo(map);
  const icon = mapPin(L);
  const markers = L.markerClusterGroup({
    showCoverageOnHover: false,
    maxClusterRadius: 40,
    spiderfyOnMaxZoom: true,
    iconCreateFunction(cluster) {
      const n = cluster.getChildCount();
      const size = n < 10 ? 'small' : n < 100 ? 'medium' : 'large';
      const label = options.cluster.replace('{{count}}', String(n));
      return L.divIcon({
        html: `<div style="margin:7px"><span aria-hidden="true">${n}</span><span class="sr-only">${label}</span></div>`,
        className: `marker-cluster marker-cluster-${size}`,
        iconSize: L.point(44, 44),
      });
    },
  }).addTo(map);
  let here: L.CircleMarker | null = null;

  function draw() {
    markers.clearLayers();
    const shown = storesShown();
    for (const s of shown) {
      const popup = document.createElement('div');
      const name = Object.assign(document.createElement('a'), { href: s.href, textContent: s.name, className: 'link font-semibold' });
      popup.append(name);
      if (s.start) {
        const start = Object.assign(document.createElement('a'), {
          href: s.start.href,
          textContent: s.start.text,
          className: 'btn btn-outline ms-2 tabular-nums',
        });
        popup.append(start);
      }
      const marker = L.marker([s.lat, s.lng], { icon, title: s.name, alt: s.name, keyboard: true }).bindPopup(popup);
      marker.on('add', () => marker.getElement()?.setAttribute('data-store-id', s.id));
      markers.addLayer(marker);
    }
    here?.remove();
    here = null;
    const position = $postLocation.get();
    const points: L.LatLngExpression[] = shown.map((s) => [s.lat, s.lng]);
    if (position) {
      here = L.circleMarker([position.latitude, position.longitude], {
        radius: 9,
        color: '#fff',
        weight: 3,
        fillColor: '#2563eb',
        fillOpacity: 1,
        interactive: true,
      })
        .bindTooltip(options.youAreHere, { permanent: false })
        .addTo(map);
      points.push([position.latitude, position.longitude]);
    }
    if (points.length) map.fitBounds(L.latLngBounds(points), { paddingTopLeft: [EDGE, EDGE + PIN_HEIGHT], paddingBottomRight: [EDGE, EDGE], maxZoom: 17 });
    else map.setView([35.681, 139.767], 12);
    // Vector layers are drawn once the map has a view: marked after it is set.
    here?.getElement()?.setAttribute('data-you-are-here', '');
    here?.getElement()?.setAttribute('aria-label', options.youAreHere);
    box.dataset.markers = String(shown.length);
  }

  // The results section is replaced when the list is re-sorted in place: map the new one.
  const parent = document.getElementById('store-results')?.parentElement;
  if (parent) new MutationObserver(() => !box.hidden && draw()).observe(parent, { childList: true });
  return {
    show() {
      map.invalidateSize();
      draw();
    },
  };
}
