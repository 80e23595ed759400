/**
 * Open redirects: every place that takes a return path from the request (`next` on sign-in and
 * sign-up, the no-JavaScript `back` of /preferences, the sign-in island's `location.assign`) is
 * given a table of tricky values. Whatever comes back, a browser resolving it against the site
 * must stay on the site.
 */
import { beforeAll, expect, it } from 'vitest';
import { forEachApp, type App } from '../helpers/app';
import { signUp, uniqueEmail, type SignedUp } from '../helpers/auth';

/** Values seen in open-redirect write-ups: normalisation, backslashes, encodings, control characters, absolute URLs. */
const TRICKY_RETURN_PATHS = [
  '/.//evil.example',
  '/./\\evil.example',
  '/..//evil.example',
  '/%2e%2e//evil.example',
  '//evil.example',
  '///evil.example',
  '/\\evil.example',
  '/\\/evil.example',
  '\\\\evil.example',
  '/\t/evil.example',
  '/\n/evil.example',
  ' //evil.example',
  'https://evil.example/home',
  'http:evil.example',
  'HTTPS://evil.example',
  '//evil.example@site/',
  'javascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  '/%2F%2Fevil.example',
  '/%5Cevil.example',
  '/%09/evil.example',
  '/\u3000/evil.example',
  '/home?next=//evil.example',
];

/** Where a browser goes with this Location, read from the site. */
const landsOn = (app: App, location: string | null) => new URL(location ?? '', `${app.url}/auth/signin`).origin;

/** The `next` of every sign-in link on a page (null where a link has none). */
const signinNexts = (html: string) =>
  [...html.matchAll(/href="(\/auth\/signin[^"]*)"/g)].map(([, href]) => new URL(href!.replace(/&amp;/g, '&'), 'http://x').searchParams.get('next'));

forEachApp(
  'open redirects',
  (app) => {
    let user: SignedUp;
    const form = (fields: Record<string, string>) => ({
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });

    beforeAll(async () => {
      user = await signUp(app());
    });

    it('keeps the no-JavaScript sign-in 303 on the site for every tricky next', async () => {
      for (const next of TRICKY_RETURN_PATHS) {
        const res = await app().fetch(`/auth/signin?next=${encodeURIComponent(next)}`, form({ email: user.email, password: user.password }));
        expect([next, res.status]).toEqual([next, 303]);
        expect([next, landsOn(app(), res.headers.get('location'))]).toEqual([next, app().url]);
      }
      // An ordinary return path still works.
      const ok = await app().fetch(`/auth/signin?next=${encodeURIComponent('/favourite?party=4')}`, form({ email: user.email, password: user.password }));
      expect(ok.headers.get('location')).toBe('/favourite?party=4');
    });

    it('gives the sign-in island only a path on the site, for its location.assign', async () => {
      for (const next of TRICKY_RETURN_PATHS) {
        const html = await (await app().fetch(`/auth/signin?next=${encodeURIComponent(next)}`)).text();
        const props = html.match(/component-url="[^"]*LoginForm[^"]*"[^>]*props="([^"]*)"/)?.[1] ?? html.match(/props="([^"]*next[^"]*)"/)?.[1];
        expect(props, 'the LoginForm island props').toBeTruthy();
        const decoded = JSON.parse(
          props!
            .replace(/&quot;/g, '"')
            .replace(/&amp;/g, '&')
            .replace(/&lt;/g, '<')
            .replace(/&gt;/g, '>')
            .replace(/&#39;/g, "'"),
        ) as { next: [number, string] };
        expect([next, landsOn(app(), decoded.next[1])]).toEqual([next, app().url]);
      }
    });

    it('keeps /auth/signup and /preferences?back= on the site', async () => {
      for (const next of TRICKY_RETURN_PATHS) {
        const back = await app().fetch('/preferences', form({ theme: 'dark', back: next }));
        expect([next, back.status]).toEqual([next, 303]);
        expect([next, landsOn(app(), back.headers.get('location'))]).toEqual([next, app().url]);
        const page = await (await app().fetch(`/auth/signup?next=${encodeURIComponent(next)}`)).text();
        // The sign-up page links to sign-in; a tricky next is dropped there (home), never kept as it came.
        const links = signinNexts(page);
        expect(links.length).toBeGreaterThan(0);
        for (const linked of links) expect([next, linked === null ? app().url : landsOn(app(), linked)]).toEqual([next, app().url]);
      }
      // A safe next survives the hop from sign-up to sign-in, so the diner lands where they were going.
      const safe = '/favourite?party=4';
      expect(signinNexts(await (await app().fetch(`/auth/signup?next=${encodeURIComponent(safe)}`)).text())).toEqual([safe]);
      // Sign-up itself (each success is a new account, so a few of the worst values are enough).
      for (const next of ['/.//evil.example', '/\\evil.example', '/\t/evil.example', 'https://evil.example']) {
        const res = await app().fetch(
          `/auth/signup?next=${encodeURIComponent(next)}`,
          form({ name: '転送 太郎', email: uniqueEmail('redirect'), password: 'long-enough-pass-1', agree: 'on' }),
        );
        expect([next, res.status]).toEqual([next, 303]);
        expect([next, landsOn(app(), res.headers.get('location'))]).toEqual([next, app().url]);
      }
    });
  },
  {},
  { shared: true },
);
