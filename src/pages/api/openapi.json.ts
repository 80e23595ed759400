import { api, json } from '../../server/http/api';
import { openApiDocument } from '../../server/openapi';

/** The OpenAPI 3.1 description of this JSON API, generated from the schemas the endpoints parse with. */
export const GET = api(() => json(openApiDocument()));
