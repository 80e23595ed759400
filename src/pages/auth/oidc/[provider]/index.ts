import type { APIRoute } from 'astro';
import { safeNext } from '../../../../lib/routes';
import { getDb } from '../../../../server/db/startup';
import { configuredProviders, isOidcProvider, startSignIn } from '../../../../server/oidc';

/**
 * 「LINEでログイン」: starts the sign-in at the provider (a link, so it works without scripts) and
 * sends the browser there. A provider that is not configured is not here (404).
 */
export const GET: APIRoute = async ({ params, url, cookies, locals }) => {
  const provider = params.provider;
  if (!isOidcProvider(provider) || !configuredProviders().includes(provider)) return new Response(null, { status: 404 });
  const target = await startSignIn(await getDb(), cookies, locals, provider, safeNext(url.searchParams.get('next')));
  return new Response(null, { status: 302, headers: { location: target.href, 'cache-control': 'no-store' } });
};
