import { useStore } from '@nanostores/react';
import { useEffect, type MouseEvent } from 'react';
import { $auth, clearAuth, setSignedIn } from '../state/auth';
import { clearSearchSession } from '../state/searchSession';
import { TABS, type TabKey } from '../lib/routes';

interface Props {
  /** The tab of the page being shown, if any. */
  active: TabKey | null;
  /** The signed-in user as the server sees it; the server is the truth when the two disagree. */
  serverUserId: number | null;
  labels: Record<'label' | 'home' | 'favourites' | 'history' | 'bookings' | 'account' | 'login', string>;
}

const ICONS: Record<TabKey | 'login', string> = {
  home: 'M3 10.5 12 3l9 7.5V21h-6v-6H9v6H3z',
  favourites: 'M12 21s-7.5-4.6-9.5-9.3C1.2 8.4 3.3 5 6.8 5c2 0 3.4 1 4.2 2.3h2C13.8 6 15.2 5 17.2 5c3.5 0 5.6 3.4 4.3 6.7C19.5 16.4 12 21 12 21z',
  history: 'M12 3a9 9 0 1 1-8.5 6H1l3.5-4L8 9H5.6A7 7 0 1 0 12 5zm-1 4h2v5.4l3.6 2.1-1 1.7L11 13.6z',
  bookings: 'M7 2h2v2h6V2h2v2h3v17H4V4h3zm-1 7v10h12V9zm2 2h3v3H8z',
  account: 'M12 12a4.5 4.5 0 1 0 0-9 4.5 4.5 0 0 0 0 9zm0 2c-4.4 0-8 2.2-8 5v2h16v-2c0-2.8-3.6-5-8-5z',
  login: 'M10 3h9v18h-9v-2h7V5h-7zm1.6 4.4 1.4-1.4 6 6-6 6-1.4-1.4 3.6-3.6H3v-2h11.2z',
};

export default function BottomNav({ active, serverUserId, labels }: Props) {
  const auth = useStore($auth);

  // Keep the browser's flag (other islands read it) in step with the server: an expired session
  // clears it, a new one sets it.
  useEffect(() => {
    if (serverUserId === null && auth.userId !== null) clearAuth();
    else if (serverUserId !== null && auth.userId !== serverUserId) setSignedIn(serverUserId);
  }, [serverUserId, auth.userId]);

  // The tab follows the server's session alone: the page the server renders is already right (also
  // without JavaScript), and hydration changes nothing (no flash, no mismatch).
  const signedIn = serverUserId !== null;

  function onClick(event: MouseEvent<HTMLAnchorElement>, key: TabKey) {
    if (key === 'home') clearSearchSession();
    if (key === active) {
      event.preventDefault();
      window.location.reload();
    }
  }

  return (
    <nav aria-label={labels.label} className="fixed inset-x-0 bottom-0 z-40 border-t border-base-300 bg-base-100 pb-[env(safe-area-inset-bottom)]">
      <ul className="mx-auto grid max-w-3xl grid-cols-5">
        {TABS.map((tab) => {
          const isAccount = tab.key === 'account';
          const guest = isAccount && !signedIn;
          const href = guest ? tab.guestHref! : tab.href;
          const text = guest ? labels.login : labels[tab.key];
          const current = tab.key === active;
          return (
            <li key={tab.key}>
              <a
                href={href}
                onClick={(e) => onClick(e, tab.key)}
                aria-current={current ? 'page' : undefined}
                data-tab={tab.key}
                className={`flex min-h-14 flex-col items-center justify-center gap-0.5 px-1 py-1.5 text-[11px] leading-tight focus-visible:outline-2 focus-visible:outline-offset-[-4px] focus-visible:outline-primary ${current ? 'font-bold text-base-content' : 'text-base-content/70'}`}
              >
                <svg aria-hidden="true" viewBox="0 0 24 24" className={`h-6 w-6 ${current ? 'fill-primary' : 'fill-current'}`}>
                  <path d={ICONS[guest ? 'login' : tab.key]} />
                </svg>
                <span>{text}</span>
                {current && <span className="h-0.5 w-6 rounded bg-primary" aria-hidden="true" />}
              </a>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
