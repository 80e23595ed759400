/**
 * Writes the OpenAPI document (src/server/openapi.ts) to `.generated/openapi.json`, for the checks
 * that read it as a file: Redocly's lint and openapi-typescript, which turns it into the types of
 * the islands' API client (src/lib/api/schema.d.ts). Both are generated, not committed: the
 * document carries the day it is built on (the availability query's default date), so a committed
 * copy would be stale by the next morning. `npm run check` runs this first.
 */
import fs from 'node:fs';
import path from 'node:path';
import { openApiDocument } from '../src/server/openapi';

const file = path.resolve(import.meta.dirname, '../.generated/openapi.json');
fs.mkdirSync(path.dirname(file), { recursive: true });
fs.writeFileSync(file, `${JSON.stringify(openApiDocument(), null, 2)}\n`);
