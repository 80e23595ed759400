/**
 * The controls both maps (the results map, a store's map) draw, named in the page's language:
 * Leaflet names its zoom buttons and a popup's close button in English.
 */
import type * as Leaflet from 'leaflet';

export interface MapLabels {
  zoomIn: string;
  zoomOut: string;
  closePopup: string;
}

/** For a map made with `zoomControl: false`. */
export function mapControls(L: typeof Leaflet, map: Leaflet.Map, labels: MapLabels): void {
  L.control.zoom({ zoomInTitle: labels.zoomIn, zoomOutTitle: labels.zoomOut }).addTo(map);
  map.on('popupopen', (e) => e.popup.getElement()?.querySelector('.leaflet-popup-close-button')?.setAttribute('aria-label', labels.closePopup));
}
