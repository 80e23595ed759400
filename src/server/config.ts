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

const schema = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(4321),
  HOST: z.string().trim().min(1).default('localhost'),
  DATA_DIR: z.string().trim().min(1).default('./data'),
  DATABASE_URL: optionalUrl(['postgres:', 'postgresql:']),
  STORE_HOST: optionalUrl(['http:', 'https:']).transform((v) => (v ?? 'https://store.sugu.jp').replace(/\/+$/, '')),
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
  PUBLIC_ORIGIN: optionalUrl(['http:', 'https:']).transform((v) => (v ? new URL(v).origin : undefined)),
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
});

export type Config = z.infer<typeof schema>;

export class ConfigError extends Error {}

/**
 * Validates the environment once. A bad value names the variable so that the operator can fix it.
 * @example parseConfig({ PORT: '80' }).PORT // 80
 */
export function parseConfig(env: Record<string, string | undefined>): Config {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
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
