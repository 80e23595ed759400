/**
 * Headers every response carries. On pages Astro writes a policy with the hashes of the scripts
 * and styles it emitted; `mergeCsp` keeps those directives and adds ours for everything else
 * (images and map tiles known only at run time, frame-ancestors, form-action…).
 */
export function securityHeaders(options: { tileOrigin: string; analytics: boolean }): Record<string, string> {
  const analytics = options.analytics ? ' https://www.googletagmanager.com https://www.google-analytics.com' : '';
  const csp = [
    "default-src 'self'",
    `script-src 'self' 'unsafe-inline'${analytics}`,
    "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net https://unpkg.com",
    `img-src 'self' data: blob: ${options.tileOrigin} https://*.tile.openstreetmap.org https://maps.googleapis.com https://maps.gstatic.com${analytics}`,
    "font-src 'self' data: https://cdn.jsdelivr.net https://unpkg.com",
    `connect-src 'self'${analytics}`,
    // The service worker (public/sw.js) and the web app manifest, from this site only.
    "worker-src 'self'",
    "manifest-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
  ].join('; ');
  return {
    'content-security-policy': csp,
    'referrer-policy': 'strict-origin-when-cross-origin',
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'cross-origin-opener-policy': 'same-origin',
    'permissions-policy': 'geolocation=(self), camera=(), microphone=()',
  };
}

/** Sent only to browsers that reached the site over https (`locals.secure`): a year, subdomains too. */
export const STRICT_TRANSPORT = 'max-age=31536000; includeSubDomains';

/** Astro's directives win where both name one (they carry the hashes); ours fill the rest. */
export function mergeCsp(astro: string | null, ours: string): string {
  if (!astro) return ours;
  const directives = (policy: string) =>
    policy
      .split(';')
      .map((d) => d.trim())
      .filter(Boolean);
  const taken = new Set(directives(astro).map((d) => d.split(/\s+/)[0]));
  return [...directives(astro), ...directives(ours).filter((d) => !taken.has(d.split(/\s+/)[0]))].join('; ');
}
