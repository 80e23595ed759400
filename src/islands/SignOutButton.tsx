import { useState } from 'react';
import { clearAuth } from '../state/auth';
import { api } from '../lib/api/client';

interface Props {
  label: string;
}

/** Sign-out (spec section 7): DELETE /api/login, then the local state is cleared whatever the answer. */
export default function SignOutButton({ label }: Props) {
  const [busy, setBusy] = useState(false);
  async function signOut() {
    setBusy(true);
    try {
      await api.DELETE('/api/login');
    } catch {
      // Offline or refused: the browser forgets the sign-in all the same.
    } finally {
      clearAuth();
      window.location.assign('/home');
    }
  }
  return (
    <button type="button" className="btn btn-outline w-full" onClick={signOut} disabled={busy} aria-busy={busy}>
      {label}
    </button>
  );
}
