import { persistentAtom } from '@nanostores/persistent';
import { computed } from 'nanostores';

/**
 * What the browser remembers of the sign-in (spec section 3, local storage key `tokenBr`).
 * The session token itself lives only in an HttpOnly cookie; nothing here is a secret.
 */
export interface AuthState {
  tenant: string | null;
  userId: number | null;
  storeId: number | null;
}

export const SIGNED_OUT: AuthState = { tenant: null, userId: null, storeId: null };

export const $auth = persistentAtom<AuthState>('tokenBr', SIGNED_OUT, {
  encode: JSON.stringify,
  decode: (raw) => {
    try {
      const v = JSON.parse(raw) as Partial<AuthState>;
      return { tenant: v.tenant ?? null, userId: typeof v.userId === 'number' ? v.userId : null, storeId: v.storeId ?? null };
    } catch {
      return SIGNED_OUT;
    }
  },
});

export const $signedIn = computed($auth, (a) => a.userId !== null);

export function setSignedIn(userId: number, tenant: string | null = null, storeId: number | null = null): void {
  $auth.set({ tenant, userId, storeId });
}

export function clearAuth(): void {
  $auth.set(SIGNED_OUT);
}
