/**
 * What the build writes to dist/client, by file extension: the Content-Type it is served with and
 * whether a compressed copy is worth keeping. One table for the build step that precompresses
 * (src/server/http/precompress.ts) and the server that sends the files (src/server/http/static.ts).
 */
import { isCompressible } from './compress.ts';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.ics': 'text/calendar; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.gif': 'image/gif',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
};

/** The Content-Type for a file name (application/octet-stream when unknown). */
export function contentTypeOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return (dot >= 0 && TYPES[fileName.slice(dot).toLowerCase()]) || 'application/octet-stream';
}

/**
 * The smallest build file given compressed copies. Lower than MIN_COMPRESS_BYTES (what is worth
 * compressing per request): a copy is made once at build time, and a page loads a dozen chunks of
 * 300–1,000 bytes whose copies are a third to half smaller (3 KB of the guest booking page's
 * JavaScript on the wire). Below this a copy saves a few dozen bytes at most.
 */
export const PRECOMPRESS_MIN_BYTES = 256;

/** Whether the build keeps `.br` and `.gz` copies of a file of this name and size. */
export function worthPrecompressing(fileName: string, size: number): boolean {
  return size >= PRECOMPRESS_MIN_BYTES && isCompressible(contentTypeOf(fileName));
}

/** The suffix of each precompressed copy, beside the original. */
export const PRECOMPRESSED = { br: '.br', gzip: '.gz' } as const;
