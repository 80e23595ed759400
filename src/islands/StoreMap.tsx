import { useEffect, useRef, useState } from 'react';
import type { Map as LeafletMap } from 'leaflet';
import leafletCss from 'leaflet/dist/leaflet.css?url';
import { loadStylesheet } from '../lib/stylesheet';
import { mapLink } from '../lib/contract/paths';
import { mapPin } from '../lib/mapPin';
import { mapControls, type MapLabels } from '../lib/mapControls';

interface Props {
  lat: number;
  lng: number;
  name: string;
  /** MAP_TILE_URL from the server's configuration. */
  tileUrl: string;
  labels: MapLabels & { region: string; tilesFailed: string; openExternal: string; attribution: string };
}

/**
 * The store on a Leaflet map. Loaded only on the store page. When tiles cannot load the map
 * still shows the marker, pans and zooms, and a notice offers an outside map.
 */
export default function StoreMap({ lat, lng, name, tileUrl, labels }: Props) {
  const box = useRef<HTMLElement>(null);
  const [tilesFailed, setTilesFailed] = useState(false);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the map is rebuilt for a new place or tile server only; the name and labels are the island's fixed props.
  useEffect(() => {
    let map: LeafletMap | null = null;
    let cancelled = false;
    // Leaflet (45 KB) and its stylesheet are fetched only when the map scrolls into view
    // (client:visible), never render-blocking in the page.
    void Promise.all([import('leaflet'), loadStylesheet(leafletCss)]).then(([{ default: L }]) => {
      if (cancelled || !box.current) return;
      map = L.map(box.current, { scrollWheelZoom: false, zoomControl: false }).setView([lat, lng], 17);
      mapControls(L, map, labels);
      const tiles = L.tileLayer(tileUrl, { maxZoom: 19, attribution: labels.attribution });
      tiles.on('tileerror', () => setTilesFailed(true));
      tiles.addTo(map);
      const icon = mapPin(L);
      L.marker([lat, lng], { icon, title: name, alt: name, keyboard: true }).addTo(map).bindPopup(name);
      box.current.dataset.mapReady = 'true';
    });
    return () => {
      cancelled = true;
      map?.remove();
    };
  }, [lat, lng, tileUrl]);

  return (
    <div className="relative h-full w-full">
      <section ref={box} aria-label={labels.region} className="h-full w-full bg-base-200" />
      {tilesFailed && (
        <p role="status" className="absolute inset-x-2 bottom-2 z-[1000] rounded bg-base-100/95 px-3 py-2 text-xs shadow" data-tiles-failed>
          {labels.tilesFailed}{' '}
          <a className="link link-primary" href={mapLink(lat, lng)} target="_blank" rel="noopener noreferrer">
            {labels.openExternal}
          </a>
        </p>
      )}
    </div>
  );
}
