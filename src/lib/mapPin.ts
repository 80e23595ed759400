/**
 * The map marker both maps draw (the results map, a store's map): Leaflet's 25×41 pin inside a
 * 45×44 touch target (product.css pads `.map-pin`), its tip 10 px further in. Its images are served
 * from our own origin (the CSP allows no image CDN).
 */
import type * as Leaflet from 'leaflet';
import iconUrl from 'leaflet/dist/images/marker-icon.png';
import iconRetinaUrl from 'leaflet/dist/images/marker-icon-2x.png';
import shadowUrl from 'leaflet/dist/images/marker-shadow.png';

const src = (asset: string | { src: string }) => (typeof asset === 'string' ? asset : asset.src);

export const mapPin = (L: typeof Leaflet) =>
  L.icon({
    iconUrl: src(iconUrl),
    iconRetinaUrl: src(iconRetinaUrl),
    shadowUrl: src(shadowUrl),
    iconSize: [25, 41],
    iconAnchor: [22, 41],
    popupAnchor: [1, -34],
    shadowSize: [41, 41],
    shadowAnchor: [12, 41],
    className: 'map-pin',
  });
