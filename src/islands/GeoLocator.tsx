import { useEffect } from 'react';
import { clearPostLocation, setPostLocation } from '../state/location';

/** Spec sections 4 and 9: high accuracy, never a cached position. */
const OPTIONS: PositionOptions = { enableHighAccuracy: true, maximumAge: 0, timeout: 30_000 };

function locate(): void {
  navigator.geolocation.getCurrentPosition(
    (p) => setPostLocation(p.coords.latitude, p.coords.longitude),
    // Spec section 8: location errors are only logged.
    (error) => console.warn('geolocation', error.code, error.message),
    OPTIONS,
  );
}

function follow(state: PermissionState): void {
  if (state === 'denied') clearPostLocation();
  else locate();
}

/**
 * Keeps `post_location` in step with the geolocation permission: granted or prompt reads the
 * position, denied forgets it, and later changes are followed. Renders nothing.
 */
export default function GeoLocator() {
  useEffect(() => {
    if (!('geolocation' in navigator)) return;
    let status: PermissionStatus | null = null;
    const onChange = () => status && follow(status.state);
    if (!navigator.permissions?.query) {
      locate();
      return;
    }
    navigator.permissions
      .query({ name: 'geolocation' })
      .then((s) => {
        status = s;
        follow(s.state);
        s.addEventListener('change', onChange);
      })
      .catch((error: unknown) => {
        console.warn('geolocation permission', error);
        locate();
      });
    return () => status?.removeEventListener('change', onChange);
  }, []);
  return null;
}
