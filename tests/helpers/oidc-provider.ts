/**
 * A real OpenID provider (oidc-provider, the certified implementation) for tests of 「LINEでログイン」,
 * listening on this machine. Its accounts are what the test puts in `accounts`; its login page takes
 * any password; consent is taken as given. `forge(true)` answers every request but the published
 * keys with a second provider of the same issuer, client and key id but another key: the ID tokens
 * it signs are not the provider's.
 */
import http from 'node:http';
import { generateKeyPairSync } from 'node:crypto';
import Provider, { type KoaContextWithOIDC } from 'oidc-provider';

export const OIDC_CLIENT_ID = 'sugu-test';
export const OIDC_CLIENT_SECRET = 'a-client-secret-long-enough-for-the-test';

export interface ProviderAccount {
  email?: string;
  email_verified?: boolean;
  name?: string;
}

export interface TestProvider {
  issuer: string;
  /** The provider's accounts by id (their `sub`). */
  accounts: Map<string, ProviderAccount>;
  /** A new account with these claims; its id. */
  account(claims: ProviderAccount): string;
  forge(on: boolean): void;
  close(): Promise<void>;
  /** The environment that configures Sugu's LINE sign-in with this provider. */
  env: Record<string, string>;
}

export async function startTestProvider(port: number, redirectUri: string): Promise<TestProvider> {
  const issuer = `http://127.0.0.1:${port}`;
  const accounts = new Map<string, ProviderAccount>();
  const make = (kid: string) => {
    const key = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });
    return new Provider(issuer, {
      clients: [
        {
          client_id: OIDC_CLIENT_ID,
          client_secret: OIDC_CLIENT_SECRET,
          redirect_uris: [redirectUri],
          grant_types: ['authorization_code'],
          response_types: ['code'],
          token_endpoint_auth_method: 'client_secret_post',
        },
      ],
      jwks: { keys: [{ ...key, kid, use: 'sig', alg: 'RS256' } as never] },
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
      // The address in the ID token itself, as LINE puts it there.
      conformIdTokenClaims: false,
      cookies: { keys: ['cookie-key-for-the-test'] },
      findAccount: (_ctx: KoaContextWithOIDC, id: string) => ({ accountId: id, claims: () => ({ sub: id, ...accounts.get(id) }) }),
      async loadExistingGrant(ctx: KoaContextWithOIDC) {
        const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client!.clientId, accountId: ctx.oidc.session!.accountId! });
        grant.addOIDCScope('openid profile email');
        await grant.save();
        return grant;
      },
    });
  };
  const real = make('key-1');
  const forger = make('key-1');
  let active = real;
  // The published keys are always the real provider's.
  const server = http.createServer((req, res) => (req.url?.startsWith('/jwks') ? real : active).callback()(req, res));
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  let counter = 0;
  return {
    issuer,
    accounts,
    account(claims) {
      const id = `line-${process.pid}-${++counter}-${Math.random().toString(36).slice(2, 8)}`;
      accounts.set(id, claims);
      return id;
    },
    forge(on) {
      active = on ? forger : real;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    env: oidcEnv(port),
  };
}

/** The environment that configures Sugu's LINE sign-in with the provider that listens (or will) on `port`. */
export function oidcEnv(port: number): Record<string, string> {
  return { OIDC_LINE_ISSUER: `http://127.0.0.1:${port}`, OIDC_LINE_CLIENT_ID: OIDC_CLIENT_ID, OIDC_LINE_CLIENT_SECRET: OIDC_CLIENT_SECRET };
}
