/**
 * After booking: the store's address, the way there, a call, and sharing the booking (the Web Share
 * API, else LINE's share screen, which is also what the link opens without JavaScript). What is
 * shared is the booking's details, never the guest's edit link. Rendered by islands and, static, by pages.
 */
import type { MouseEvent } from 'react';
import { directionsUrl, lineShareUrl, telHref } from '../../lib/links';

interface Props {
  store: { address: string; phone: string; lat: number; lng: number };
  shareText: string;
  labels: { address: string; directions: string; call: string; share: string };
}

export default function StoreLinks({ store, shareText, labels }: Props) {
  function share(event: MouseEvent<HTMLAnchorElement>) {
    if (typeof navigator.share !== 'function') return;
    event.preventDefault();
    navigator.share({ text: shareText }).catch(() => {
      /* the diner closed the share sheet */
    });
  }
  return (
    <div className="space-y-2" data-testid="store-links">
      <p className="text-sm">
        <span className="font-medium">{labels.address}</span> {store.address}
      </p>
      <div className="flex flex-wrap gap-2">
        <a className="btn btn-outline" href={directionsUrl(store.lat, store.lng)} target="_blank" rel="noopener noreferrer">
          {labels.directions}
        </a>
        <a className="btn btn-outline" href={telHref(store.phone)}>
          {labels.call}
        </a>
        <a className="btn btn-outline" href={lineShareUrl(shareText)} target="_blank" rel="noopener noreferrer" onClick={share}>
          {labels.share}
        </a>
      </div>
    </div>
  );
}
