/**
 * Every setting Sugu reads from its environment, checked once at start (zod), with its default.
 *
 * One module: the one place the environment is read (a test keeps it so); the settings and their
 * checks are a single list an operator reads top to bottom.
 */
import { BlockList, isIP } from 'node:net';
import * as z from 'zod/mini';

// An operator reads these messages ("PORT: Too big: expected number to be <=65535"): English, as zod
// words them. `zod/mini` carries no words of its own (islands ship none), so the server loads them.
z.config(z.locales.en());

/** The phone number the legal notice shows until the operator sets OPERATOR_PHONE: not a working number. */
export const OPERATOR_PHONE_PLACEHOLDER = '03-0000-0000';

/** A setting that may be unset: trimmed, and empty read as unset. */
const optionalSetting = () =>
  z.pipe(
    z.optional(z.string().check(z.trim())),
    z.transform((v) => (v ? v : undefined)),
  );

const optionalUrl = (protocols: string[]) =>
  optionalSetting().check(
    z.refine((v) => v === undefined || (URL.canParse(v) && protocols.includes(new URL(v).protocol)), {
      message: `must be a URL starting with ${protocols.join(' or ')}//`,
    }),
  );

/**
 * Proxies to believe about the client's address: a comma-separated list of addresses and CIDR
 * ranges (`127.0.0.1, 10.0.0.0/8, fd00::/8`). Empty: none, the connection's address is the client's.
 */
export function parseProxyList(value: string): BlockList | null {
  const entries = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (!entries.length) return null;
  const list = new BlockList();
  for (const entry of entries) {
    const [address = '', bits, extra] = entry.split('/');
    const family = isIP(address);
    const max = family === 6 ? 128 : 32;
    const prefix = bits === undefined ? max : /^\d{1,3}$/.test(bits) ? Number(bits) : NaN;
    if (!family || extra !== undefined || !(prefix >= 0 && prefix <= max)) throw new Error(`"${entry}" is not an IP address or CIDR range`);
    list.addSubnet(address, prefix, family === 6 ? 'ipv6' : 'ipv4');
  }
  return list;
}

const proxyList = z.pipe(
  z._default(z.string(), ''),
  z.transform((v: string, ctx) => {
    try {
      return parseProxyList(v);
    } catch (error) {
      ctx.issues.push({ code: 'custom', message: `must be IP addresses or CIDR ranges separated by commas: ${(error as Error).message}`, input: v });
      return z.NEVER;
    }
  }),
);

/** A whole number setting from 1 to 1,000,000; unset or empty: undefined. */
const optionalCount = () =>
  z.pipe(
    z.transform((v) => (v === '' ? undefined : v)),
    z.optional(z.pipe(z.coerce.number(), z.int().check(z.minimum(1), z.maximum(1_000_000)))),
  );
/** The same, with a default. */
const count = (fallback: number) =>
  z.pipe(
    optionalCount(),
    z.transform((v) => v ?? fallback),
  );

/**
 * An OpenID provider's issuer: https, or http on this machine only (the provider a test runs beside
 * the server); discovery and every token request then go over http, which a real provider never allows.
 */
const issuerUrl = optionalUrl(['http:', 'https:']).check(
  z.refine((v) => v === undefined || new URL(v).protocol === 'https:' || ['localhost', '127.0.0.1', '[::1]'].includes(new URL(v).hostname), {
    message: 'must be an https URL (http only on localhost)',
  }),
);

/** Trimmed text, `fallback` when unset. */
const text = (fallback: string) => z._default(z.string().check(z.trim()), fallback);
/** Trimmed text, `fallback` when unset, that must pass `test` (else `message`). */
const textWhere = (fallback: string, test: (v: string) => boolean, message: string) => text(fallback).check(z.refine(test, { message }));

const schema = z
  .object({
    PORT: z._default(z.pipe(z.coerce.number(), z.int().check(z.minimum(1), z.maximum(65535))), 4321),
    HOST: z._default(z.string().check(z.trim(), z.minLength(1)), 'localhost'),
    DATA_DIR: z._default(z.string().check(z.trim(), z.minLength(1)), './data'),
    DATABASE_URL: optionalUrl(['postgres:', 'postgresql:']),
    /** Unset: `http://store.localhost:PORT` (see `parseConfig`), which browsers resolve to this machine. */
    STORE_HOST: z.pipe(
      optionalUrl(['http:', 'https:']),
      z.transform((v) => v?.replace(/\/+$/, '')),
    ),
    PUBLIC_MAPS_KEY: text(''),
    PUBLIC_ANALYTICS_ID: textWhere('', (v) => v === '' || /^[A-Za-z0-9_-]{3,64}$/.test(v), 'must be letters, digits, - or _'),
    MAP_TILE_URL: textWhere(
      'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
      (v) => /^https?:\/\/[^\s]+\{z\}[^\s]*\{x\}[^\s]*\{y\}/.test(v),
      'must be an http(s) tile URL containing {z}, {x} and {y}',
    ),
    SMTP_URL: optionalUrl(['smtp:', 'smtps:']),
    MAIL_FROM: textWhere(
      'すぐ予約 <no-reply@sugu.jp>',
      (v) => /^(?:[^<>]*<[^<>\s@]+@[^<>\s@]+>|[^<>\s@]+@[^<>\s@]+)$/.test(v),
      'must be an address, or a name and <address>',
    ),
    /**
     * The operator's phone number for 特定商取引法に基づく表記 (/ecommerce), as it is to be shown. Unset:
     * the placeholder, and the page says that it is one.
     */
    OPERATOR_PHONE: z
      .pipe(
        text(OPERATOR_PHONE_PLACEHOLDER),
        z.transform((v) => v || OPERATOR_PHONE_PLACEHOLDER),
      )
      // As printed: digits with the usual separators (npm start reads this file before any build, so it imports nothing of src/lib).
      .check(
        z.refine((v) => /^\+?\d[\d -]{8,15}\d$/.test(v) && v.replace(/\D/g, '').length >= 10, {
          message: 'must be a phone number as it is to be shown, e.g. 03-1234-5678',
        }),
      ),
    /** How long before a booking its day-of reminder is mailed (none for a booking made later than that). */
    REMINDER_LEAD_MINUTES: count(180),
    /**
     * Web Push's VAPID key pair (base64url, as `npx web-push generate-vapid-keys` prints them). Unset:
     * a pair is generated once into DATA_DIR/vapid.json (src/server/push/vapid.ts); instances that
     * share a database must share the pair, so set both there.
     */
    VAPID_PUBLIC_KEY: text(''),
    VAPID_PRIVATE_KEY: text(''),
    /** Who the push services may contact about this sender (VAPID `sub`): a mailto: or https: URL. */
    VAPID_SUBJECT: textWhere('mailto:no-reply@sugu.jp', (v) => /^(mailto:[^\s@]+@[^\s@]+|https:\/\/\S+)$/.test(v), 'must be a mailto: or https: URL'),
    /** Tests only: push endpoints on http: and on this machine are accepted (never set in production). */
    PUSH_ALLOW_LOCAL_ENDPOINTS: z.pipe(
      z._default(z.enum(['', '0', '1']), ''),
      z.transform((v) => v === '1'),
    ),
    PUBLIC_ORIGIN: z.pipe(
      optionalUrl(['http:', 'https:']),
      z.transform((v) => (v ? new URL(v).origin : undefined)),
    ),
    NODE_ENV: z._default(z.enum(['development', 'production', 'test']), 'production'),
    /**
     * The server's clock set to this instant (ISO 8601 with an offset) when the process starts, then
     * running on (src/server/clock.ts): browser tests see the app at a chosen hour. Never set in
     * production; the server logs a warning when it is.
     */
    SUGU_CLOCK: z.pipe(
      z.pipe(
        z.transform((v) => (v === '' ? undefined : v)),
        z.optional(z.iso.datetime({ offset: true })),
      ),
      z.transform((v) => (v ? new Date(v) : undefined)),
    ),
    // Abuse limits (docs/production.md, "Abuse limits").
    TRUST_PROXY: proxyList,
    PROXY_HEADER: z._default(z.enum(['x-forwarded-for', 'forwarded']), 'x-forwarded-for'),
    STREAMS_PER_CLIENT: count(10),
    /** Unset: a quarter of the process's open-file limit, at most 2,000 (src/server/streamAdmission.ts). */
    STREAMS_TOTAL: optionalCount(),
    STREAM_MAX_SECONDS: count(30 * 60),
    /** Open connections one address may hold; its newer ones are closed at once (src/server/http/edge.ts). */
    CONNECTIONS_PER_ADDRESS: count(256),
    /** Requests one client address may have in flight (streams included); more: 429. Behind TRUST_PROXY, the proxy's client. */
    REQUESTS_PER_ADDRESS: count(64),
    /** A connection that has not sent a whole request head this long after opening is closed. */
    HEADERS_TIMEOUT_SECONDS: count(10),
    /** A request (head and body) not received whole in this long is answered 408. */
    REQUEST_TIMEOUT_SECONDS: count(30),
    GUEST_BOOKINGS_PER_ADDRESS: count(20),
    BOOKINGS_PER_CONTACT: count(5),
    /** Mails of every kind to one mailbox (normaliseRecipient) an hour; past it they are recorded, not sent. */
    MAIL_PER_RECIPIENT: count(20),
    /** One "booking changed" mail per booking within this many seconds, carrying the latest state. */
    BOOKING_CHANGE_MAIL_SECONDS: count(300),
    /**
     * Sign-in with OpenID Connect providers (src/server/oidc.ts): each provider is on when its issuer,
     * client id and secret are all set, and the sign-in page then offers it. LINE Login v2.1's issuer
     * is https://access.line.me; Google's https://accounts.google.com.
     */
    OIDC_LINE_ISSUER: issuerUrl,
    OIDC_LINE_CLIENT_ID: optionalSetting(),
    OIDC_LINE_CLIENT_SECRET: optionalSetting(),
    OIDC_GOOGLE_ISSUER: issuerUrl,
    OIDC_GOOGLE_CLIENT_ID: optionalSetting(),
    OIDC_GOOGLE_CLIENT_SECRET: optionalSetting(),
    /** The project folder (the one holding db/migrations), when Sugu runs from elsewhere (src/server/db/root.ts). */
    SUGU_ROOT: optionalSetting(),
    /** The PGlite worker script, when it is not found beside the code or under SUGU_ROOT (src/server/db/client.ts). */
    SUGU_PGLITE_WORKER: optionalSetting(),
    /** `0`: no log line per request or per live stream (docs/production.md, "Logs"); anything else: one each. */
    SUGU_LOG_REQUESTS: z.pipe(
      z._default(z.string(), ''),
      z.transform((v: string) => v.trim() !== '0'),
    ),
    /**
     * How often an idle live stream sends a comment so that proxies keep it open: up to a day (tests
     * shorten it, or lengthen it so that nothing but events is sent).
     */
    SUGU_SSE_HEARTBEAT_MS: z.pipe(
      z.transform((v) => (v === '' ? undefined : v)),
      z._default(z.pipe(z.coerce.number(), z.int().check(z.minimum(1), z.maximum(24 * 60 * 60_000))), 15_000),
    ),
    /** How long in-flight requests get to finish at shutdown before their connections are cut (scripts/start.mjs). */
    SHUTDOWN_TIMEOUT_MS: z.pipe(
      z.transform((v) => (v === '' ? undefined : v)),
      z._default(z.pipe(z.coerce.number(), z.int().check(z.minimum(0), z.maximum(600_000))), 10_000),
    ),
  })
  .check(
    z.superRefine((c, ctx) => {
      // Half a provider is a mistake to name at start, not a button that fails when pressed.
      for (const p of ['LINE', 'GOOGLE'] as const) {
        const keys = [`OIDC_${p}_ISSUER`, `OIDC_${p}_CLIENT_ID`, `OIDC_${p}_CLIENT_SECRET`] as const;
        const set = keys.filter((k) => c[k] !== undefined);
        if (set.length && set.length < keys.length) {
          for (const k of keys.filter((k) => c[k] === undefined)) ctx.addIssue({ code: 'custom', path: [k], message: `must be set with ${set.join(' and ')}` });
        }
      }
    }),
  );

export type Config = Omit<z.infer<typeof schema>, 'STORE_HOST'> & {
  /**
   * The store host's origin (the store-manager site, served by this same server to requests whose
   * Host is its host). In development it needs no set-up: browsers and curl send `*.localhost` to
   * the loopback address, and the port follows PORT, so a server on any port serves its store host.
   */
  STORE_HOST: string;
};

export class ConfigError extends Error {}

/**
 * Validates the environment once. A bad value names the variable so that the operator can fix it.
 * @example parseConfig({ PORT: '80' }).PORT // 80
 */
export function parseConfig(env: Record<string, string | undefined>): Config {
  const result = schema.safeParse(env);
  if (result.success) return { ...result.data, STORE_HOST: result.data.STORE_HOST ?? `http://store.localhost:${result.data.PORT}` };
  const lines = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message} (got ${JSON.stringify(env[String(i.path[0])])})`);
  throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
}

let cached: Config | undefined;
export function config(): Config {
  cached ??= parseConfig(process.env);
  return cached;
}

/**
 * The site's address for links that leave by mail (password reset, guest edit link). Never taken
 * from the request: its Host header is the client's to choose, and a forged one would send a
 * one-time token to someone else's site.
 * @example publicOrigin() // 'http://localhost:4321' by default
 */
export function publicOrigin(): string {
  const c = config();
  if (c.PUBLIC_ORIGIN) return c.PUBLIC_ORIGIN;
  const host = c.HOST === '0.0.0.0' || c.HOST === '::' ? 'localhost' : c.HOST.includes(':') ? `[${c.HOST}]` : c.HOST;
  return `http://${host}:${c.PORT}`;
}
