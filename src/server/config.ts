import { BlockList, isIP } from 'node:net';
import { z } from 'zod';

const optionalUrl = (protocols: string[]) =>
  z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v : undefined))
    .refine((v) => v === undefined || (URL.canParse(v) && protocols.includes(new URL(v).protocol)), {
      message: `must be a URL starting with ${protocols.join(' or ')}//`,
    });

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

const proxyList = z
  .string()
  .default('')
  .transform((v, ctx) => {
    try {
      return parseProxyList(v);
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: `must be IP addresses or CIDR ranges separated by commas: ${(error as Error).message}` });
      return z.NEVER;
    }
  });

/** A whole number setting from 1 to 1,000,000; unset or empty: undefined. */
const optionalCount = () => z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(1).max(1_000_000).optional());
/** The same, with a default. */
const count = (fallback: number) => optionalCount().transform((v) => v ?? fallback);

const schema = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(4321),
  HOST: z.string().trim().min(1).default('localhost'),
  DATA_DIR: z.string().trim().min(1).default('./data'),
  DATABASE_URL: optionalUrl(['postgres:', 'postgresql:']),
  /** Unset: `http://store.localhost:PORT` (see `parseConfig`), which browsers resolve to this machine. */
  STORE_HOST: optionalUrl(['http:', 'https:']).transform((v) => v?.replace(/\/+$/, '')),
  PUBLIC_MAPS_KEY: z.string().trim().default(''),
  PUBLIC_ANALYTICS_ID: z
    .string()
    .trim()
    .default('')
    .refine((v) => v === '' || /^[A-Za-z0-9_-]{3,64}$/.test(v), { message: 'must be letters, digits, - or _' }),
  MAP_TILE_URL: z
    .string()
    .trim()
    .default('https://tile.openstreetmap.org/{z}/{x}/{y}.png')
    .refine((v) => /^https?:\/\/[^\s]+\{z\}[^\s]*\{x\}[^\s]*\{y\}/.test(v), {
      message: 'must be an http(s) tile URL containing {z}, {x} and {y}',
    }),
  SMTP_URL: optionalUrl(['smtp:', 'smtps:']),
  MAIL_FROM: z
    .string()
    .trim()
    .default('すぐ予約 <no-reply@sugu.jp>')
    .refine((v) => /^(?:[^<>]*<[^<>\s@]+@[^<>\s@]+>|[^<>\s@]+@[^<>\s@]+)$/.test(v), { message: 'must be an address, or a name and <address>' }),
  /** How long before a booking its day-of reminder is mailed (none for a booking made later than that). */
  REMINDER_LEAD_MINUTES: count(180),
  PUBLIC_ORIGIN: optionalUrl(['http:', 'https:']).transform((v) => (v ? new URL(v).origin : undefined)),
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  /**
   * The server's clock set to this instant (ISO 8601 with an offset) when the process starts, then
   * running on (src/server/clock.ts): browser tests see the app at a chosen hour. Never set in
   * production; the server logs a warning when it is.
   */
  SUGU_CLOCK: z.preprocess((v) => (v === '' ? undefined : v), z.iso.datetime({ offset: true }).optional()).transform((v) => (v ? new Date(v) : undefined)),
  // Abuse limits (docs/production.md, "Abuse limits").
  TRUST_PROXY: proxyList,
  PROXY_HEADER: z.enum(['x-forwarded-for', 'forwarded']).default('x-forwarded-for'),
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
});

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
