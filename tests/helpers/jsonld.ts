/**
 * Reads the schema.org markup of a page or mail as a consumer does: every
 * `<script type="application/ld+json">` parsed, then expanded by a JSON-LD processor (npm `jsonld`)
 * with an offline document loader that serves schema.org's context as its one rule (`@vocab`), so
 * a term that is not schema.org's, a bad `@type` or malformed JSON-LD shows in the expanded form.
 * Google's reservation markup is held to the properties its documentation marks required.
 */
import jsonld from 'jsonld';

const SCHEMA = 'https://schema.org/';

/** The context documents the loader serves; anything else is refused (no network). */
const CONTEXTS: Record<string, object> = Object.fromEntries(
  ['https://schema.org', 'https://schema.org/', 'http://schema.org', 'http://schema.org/'].map((url) => [url, { '@context': { '@vocab': SCHEMA } }]),
);

const documentLoader = async (url: string) => {
  const document = CONTEXTS[url];
  if (!document) throw new Error(`no offline context for ${url}`);
  return { contextUrl: undefined, documentUrl: url, document };
};

type Json = Record<string, any>;

/** The JSON of every ld+json script in `html`, arrays flattened. JSON.parse throws on a broken one. */
export function ldBlocks(html: string): Json[] {
  const blocks = [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1]!) as Json | Json[]);
  return blocks.flat();
}

/** The one block of `type` (throws when there is none or more than one). */
export function ldOf(html: string, type: string): Json {
  const found = ldBlocks(html).filter((b) => b['@type'] === type);
  if (found.length !== 1) throw new Error(`${found.length} blocks of type ${type}`);
  return found[0]!;
}

/**
 * A block expanded by the JSON-LD processor: its nodes with full IRIs. Throws on what the processor
 * refuses; `safe` mode also refuses terms it would silently drop (not in the vocabulary's form).
 */
export async function expand(block: Json): Promise<Json[]> {
  return await (jsonld.expand(block, { documentLoader: documentLoader as never, safe: true } as never) as unknown as Promise<Json[]>);
}

/** A property's first value in an expanded node (`@value`, `@id` or the nested node). */
export function value(node: Json, property: string): any {
  const v = node[SCHEMA + property]?.[0];
  if (v === undefined) return undefined;
  return '@value' in v ? v['@value'] : '@id' in v && Object.keys(v).length === 1 ? v['@id'] : v;
}

/** The type IRIs of an expanded node. */
export const typesOf = (node: Json): string[] => node['@type'] ?? [];

/**
 * What Google's reservation markup (FoodEstablishmentReservation) lacks of its required properties:
 * reservationNumber, reservationStatus, underName.name, reservationFor.name and .address,
 * startTime, partySize. Empty when nothing is missing.
 */
export function missingReservationProperties(r: Json): string[] {
  const required: [string, unknown][] = [
    ['reservationNumber', r.reservationNumber],
    ['reservationStatus', r.reservationStatus],
    ['underName.name', r.underName?.name],
    ['reservationFor.name', r.reservationFor?.name],
    ['reservationFor.address', r.reservationFor?.address],
    ['startTime', r.startTime],
    ['partySize', r.partySize],
  ];
  return required.filter(([, v]) => v === undefined || v === null || v === '').map(([k]) => k);
}

export const schemaIri = (term: string) => SCHEMA + term;
