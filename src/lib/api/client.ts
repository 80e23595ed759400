/**
 * The islands' client of the JSON API, typed by the OpenAPI document itself: openapi-typescript
 * turns the document into `paths` (`npm run check` generates .generated/api.d.ts from
 * src/server/openapi.ts first), and openapi-fetch checks each call's path, parameters, body and
 * answer against them. A call the document does not carry, or an answer read as something it does
 * not say, fails the type check.
 */
import createClient from 'openapi-fetch';
import type { paths } from '../../../.generated/api';

/** Same origin: the page's own site (the document's server is `/`). */
export const api = createClient<paths>({ headers: { accept: 'application/json' } });
