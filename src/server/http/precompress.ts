/**
 * Build step: a brotli (`.br`) and a gzip (`.gz`) copy beside every static file worth compressing,
 * at the slowest, smallest settings, so the server sends them without compressing per request
 * (src/server/http/static.ts). A copy that would not be smaller is not written.
 *
 * Runs after `astro build` as the integration `precompress()` (astro.config.mjs).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { PRECOMPRESSED, worthPrecompressing } from './assetTypes.ts';

function* filesUnder(dir: string): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(full);
    else if (entry.isFile()) yield full;
  }
}

const encoders = {
  br: (body: Buffer) =>
    zlib.brotliCompressSync(body, {
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length },
    }),
  gzip: (body: Buffer) => zlib.gzipSync(body, { level: zlib.constants.Z_BEST_COMPRESSION }),
};

/** Writes the compressed copies under `dir`; answers how many files got them. */
export function precompressDir(dir: string): { files: number; bytes: number; brotliBytes: number } {
  const stats = { files: 0, bytes: 0, brotliBytes: 0 };
  for (const file of filesUnder(dir)) {
    if (Object.values(PRECOMPRESSED).some((suffix) => file.endsWith(suffix))) continue;
    const size = fs.statSync(file).size;
    if (!worthPrecompressing(file, size)) continue;
    const body = fs.readFileSync(file);
    for (const [coding, suffix] of Object.entries(PRECOMPRESSED) as [keyof typeof PRECOMPRESSED, string][]) {
      const packed = encoders[coding](body);
      if (packed.length >= body.length) continue;
      fs.writeFileSync(file + suffix, packed);
      if (coding === 'br') stats.brotliBytes += packed.length;
    }
    stats.files += 1;
    stats.bytes += body.length;
  }
  return stats;
}

/** The Astro integration: precompresses the client output once the build is done. */
export function precompress() {
  return {
    name: 'sugu:precompress',
    hooks: {
      'astro:build:done': ({ dir, logger }: { dir: URL; logger: { info(message: string): void } }) => {
        // For a server build, `dir` is the client output (dist/client).
        const stats = precompressDir(fileURLToPath(dir));
        logger.info(`${stats.files} files precompressed: ${Math.round(stats.bytes / 1024)} KB → ${Math.round(stats.brotliBytes / 1024)} KB brotli`);
      },
    },
  };
}
