/**
 * Every answer an API test receives is checked against the OpenAPI document (src/server/openapi.ts)
 * with ajv in JSON Schema 2020-12, OpenAPI 3.1's dialect: its status must be one the document lists
 * for that operation, and a JSON body must fit the schema given for that status. A method the
 * document does not list on a documented path must be 405 with `Allow`. Any mismatch throws, which
 * fails the test that made the call: the document cannot drift from what the server does.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { ValidateFunction } from 'ajv';
import { openApiDocument } from '../../src/server/openapi';

type Json = Record<string, any>;
const DOC_ID = 'https://sugu.invalid/openapi.json';

let state: { doc: Json; ajv: Ajv2020; paths: { template: string; pattern: RegExp; literal: boolean }[] } | undefined;
const validators = new Map<string, ValidateFunction>();

function load() {
  if (state) return state;
  const doc = openApiDocument();
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  ((addFormats as unknown as { default?: typeof addFormats }).default ?? addFormats)(ajv);
  ajv.addSchema({ ...doc, $id: DOC_ID });
  const paths = Object.keys(doc.paths as Json).map((template) => ({
    template,
    pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
    literal: !template.includes('{'),
  }));
  return (state = { doc, ajv, paths });
}

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/** The document's path template for `pathname` (a fixed path wins over a template that fits it too). */
function templateOf(pathname: string): string | undefined {
  const fitting = load().paths.filter((p) => p.pattern.test(pathname));
  return (fitting.find((p) => p.literal) ?? fitting[0])?.template;
}

/**
 * Throws when `res`, the answer to `method pathname`, is not what the document says. Reads a JSON
 * body from a clone, so the caller can still read it.
 */
export async function checkAgainstDocument(method: string, url: URL, res: Response): Promise<void> {
  const pathname = url.pathname;
  if (!pathname.startsWith('/api/')) return;
  // An encoded separator or a dot segment names no resource of the document: the server
  // normalises such a path (a redirect) before any operation sees it.
  if (/%2f|%5c|(^|\/)\.\.?(\/|$)|%2e/i.test(pathname)) return;
  const template = templateOf(pathname);
  if (!template) return;
  const upper = method.toUpperCase();
  const what = `${upper} ${pathname}${url.search} → ${res.status}`;
  if (upper === 'OPTIONS') return;
  const { doc, ajv } = load();
  const ops = doc.paths[template] as Json;
  const op = ops[upper === 'HEAD' ? 'get' : upper.toLowerCase()] as Json | undefined;
  if (!op) {
    if (res.status === 405 && res.headers.get('allow')) return;
    throw new Error(`${what}: ${template} documents no ${upper}, so the answer must be 405 with Allow`);
  }
  const status = String(res.status);
  const documented = (op.responses as Json)[status] as Json | undefined;
  if (!documented)
    throw new Error(`${what}: status ${status} is not in the document for ${upper} ${template} (it lists ${Object.keys(op.responses).join(', ')})`);
  if (upper === 'HEAD' || res.status === 204 || res.status === 304) return;
  const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim();
  const content = documented.content as Json | undefined;
  if (!content) {
    const text = await res.clone().text();
    if (text !== '') throw new Error(`${what}: the document gives no body for ${status}, the server sent ${type}: ${text.slice(0, 200)}`);
    return;
  }
  if (!content[type]) throw new Error(`${what}: content type ${type || '(none)'} is not one the document gives (${Object.keys(content).join(', ')})`);
  if (type !== 'application/json') return;
  const key = pointer('paths', template, upper === 'HEAD' ? 'get' : upper.toLowerCase(), 'responses', status, 'content', 'application/json', 'schema');
  let validate = validators.get(key);
  if (!validate) {
    validate = ajv.getSchema(`${DOC_ID}#/${key}`);
    if (!validate) throw new Error(`${what}: no schema at ${key}`);
    validators.set(key, validate);
  }
  const text = await res.clone().text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(`${what}: the body is not JSON: ${text.slice(0, 200)}`);
  }
  if (!validate(body)) {
    throw new Error(`${what}: the body does not fit the document's schema:\n${ajv.errorsText(validate.errors, { separator: '\n' })}\n${text.slice(0, 500)}`);
  }
}
