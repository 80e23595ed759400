/**
 * The diner's watch alerts (空席通知) while a page is open: one EventSource on
 * /api/watches/stream, opened only when the server said the diner (or this device) has watches.
 * The server sends this owner's alerts and nobody else's; EventSource reconnects by itself, and a
 * refusal (429/503) closes it for good, leaving the mail to tell the diner.
 */
import { watchPaths } from '../lib/contract/paths';
import type { WatchAlert } from '../lib/contract/watches';

/** `onOpen` hears the stream connected (and connected again): alerts from then on reach this page. */
export function listenWatchAlerts(onAlert: (alert: WatchAlert) => void, onOpen?: () => void): () => void {
  if (typeof EventSource === 'undefined') return () => {};
  const source = new EventSource(watchPaths.stream);
  if (onOpen) source.addEventListener('open', onOpen);
  source.addEventListener('watch', (e) => {
    try {
      onAlert(JSON.parse((e as MessageEvent<string>).data) as WatchAlert);
    } catch {
      /* a malformed event is skipped */
    }
  });
  return () => source.close();
}
