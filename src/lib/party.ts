import { PARTY_MAX } from './contract/limits';

/** What the rule needs of a table: its largest party, and whether diners may book it online. */
export interface TableSize {
  readonly maxParty: number;
  readonly online: boolean;
}

/**
 * The largest party a store can seat at one table: the party choices the forms offer, the store
 * page's "too many" note and the booking's refusal all read it. Walk-in-only tables are not the
 * diners' (staff may use them), and no party exceeds PARTY_MAX whatever the tables say.
 */
export function largestParty(tables: readonly TableSize[], staff = false): number {
  return Math.min(PARTY_MAX, Math.max(0, ...tables.filter((x) => staff || x.online).map((x) => x.maxParty)));
}
