/**
 * Static files of the build (dist/client), answered at the HTTP edge from memory: the brotli or
 * gzip copy the build made (src/server/http/precompress.ts) when the browser accepts it, with a
 * content-hash `ETag`, `Last-Modified`, `304` on revalidation, and a cache lifetime by kind:
 *
 * - `/_astro/…`: file names carry a content hash, so the file never changes: a year, immutable.
 * - other public files (photos, icons): a day, then revalidated by ETag (a photo may be replaced
 *   under the same name by the next deployment).
 *
 * Files over MAX_BYTES (none today) are left to the node adapter's static handler.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { contentTypeOf, PRECOMPRESSED } from './assetTypes.ts';
import { negotiate, varyOnEncoding, type Coding } from './compress.ts';

const MAX_BYTES = 1024 * 1024;
export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const PUBLIC_FILE = 'public, max-age=86400';

interface Representation {
  body: Buffer;
  etag: string;
}

export interface Asset {
  type: string;
  cacheControl: string;
  lastModified: string;
  /** Whole seconds, as Last-Modified and If-Modified-Since carry them. */
  modifiedSeconds: number;
  /** The original, and its compressed copies when the build made them. */
  variants: Partial<Record<Coding, Representation>>;
}

export type Assets = ReadonlyMap<string, Asset>;

function* filesUnder(dir: string, prefix = ''): Generator<[urlPath: string, file: string]> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(full, `${prefix}/${entry.name}`);
    else if (entry.isFile()) yield [`${prefix}/${entry.name}`, full];
  }
}

/** Reads the build's static files (and their compressed copies) into memory, keyed by URL path. */
export function loadAssets(clientDir: string): Assets {
  const assets = new Map<string, Asset>();
  if (!fs.existsSync(clientDir)) return assets;
  const suffixes = Object.values(PRECOMPRESSED) as string[];
  for (const [urlPath, file] of filesUnder(clientDir)) {
    if (suffixes.some((suffix) => file.endsWith(suffix))) continue;
    const stat = fs.statSync(file);
    if (stat.size > MAX_BYTES) continue;
    const body = fs.readFileSync(file);
    const hash = crypto.createHash('sha256').update(body).digest('base64url').slice(0, 22);
    const variants: Asset['variants'] = { identity: { body, etag: `"${hash}"` } };
    for (const [coding, suffix] of Object.entries(PRECOMPRESSED) as [keyof typeof PRECOMPRESSED, string][]) {
      // A copy older than its original is left over from an earlier build: never sent.
      const copy = file + suffix;
      if (fs.existsSync(copy) && fs.statSync(copy).mtimeMs >= stat.mtimeMs)
        variants[coding] = { body: fs.readFileSync(copy), etag: `"${hash}-${suffix.slice(1)}"` };
    }
    const modifiedSeconds = Math.floor(stat.mtimeMs / 1000);
    const type = contentTypeOf(file);
    assets.set(urlPath, {
      type,
      cacheControl: urlPath.startsWith('/_astro/') ? IMMUTABLE : type.startsWith('text/html') ? 'public, no-cache' : PUBLIC_FILE,
      lastModified: new Date(modifiedSeconds * 1000).toUTCString(),
      modifiedSeconds,
      variants,
    });
  }
  return assets;
}

/** Whether the client's cached copy (If-None-Match, else If-Modified-Since) is still this one. */
function notModified(req: IncomingMessage, asset: Asset, etag: string): boolean {
  const match = req.headers['if-none-match'];
  if (match !== undefined) {
    // Weak comparison, as for GET: W/"x" matches "x".
    const strip = (tag: string) => tag.trim().replace(/^W\//, '');
    return match.trim() === '*' || match.split(',').some((tag) => strip(tag) === etag);
  }
  const since = Date.parse(req.headers['if-modified-since'] ?? '');
  return Number.isFinite(since) && asset.modifiedSeconds <= since / 1000;
}

/**
 * Answers a GET or HEAD for a file of the build; false (nothing sent) for anything else.
 *
 * @example if (!serveStatic(assets, req, res)) appHandler(req, res);
 */
export function serveStatic(assets: Assets, req: IncomingMessage, res: ServerResponse): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const raw = (req.url ?? '/').split(/[?#]/, 1)[0]!;
  let urlPath: string;
  try {
    urlPath = decodeURI(raw);
  } catch {
    return false;
  }
  const asset = assets.get(urlPath);
  if (!asset) return false;
  const compressed = asset.variants.br || asset.variants.gzip;
  const offered = (['br', 'gzip'] as const).filter((coding) => asset.variants[coding]);
  const coding = compressed ? negotiate(req.headers['accept-encoding'], offered) : 'identity';
  const chosen = asset.variants[coding]!;
  const headers: Record<string, string> = {
    'cache-control': asset.cacheControl,
    etag: chosen.etag,
    'last-modified': asset.lastModified,
    'x-content-type-options': 'nosniff',
  };
  if (compressed) headers.vary = varyOnEncoding(undefined);
  if (notModified(req, asset, chosen.etag)) {
    res.writeHead(304, headers);
    res.end();
    return true;
  }
  headers['content-type'] = asset.type;
  headers['content-length'] = String(chosen.body.length);
  if (coding !== 'identity') headers['content-encoding'] = coding;
  res.writeHead(200, headers);
  res.end(req.method === 'HEAD' ? undefined : chosen.body);
  return true;
}
