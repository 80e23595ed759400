/**
 * The body of every API error (DESIGN §4): `{ error: { code, message, fields? } }`. Kept free of
 * imports so that the HTTP edge (src/server/http/edge.ts, which answers before Astro sees a
 * request) writes exactly what the endpoints write.
 * @example errorBody('not_found', '見つかりませんでした') // { error: { code: 'not_found', message: '見つかりませんでした' } }
 */
export function errorBody(code: string, message: string, more: Record<string, unknown> = {}): { error: Record<string, unknown> } {
  return { error: { code, message, ...more } };
}
