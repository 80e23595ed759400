/**
 * Named statements for Drizzle's queries. Drizzle asks postgres.js for an unnamed statement unless
 * a query is given a name, so every query was parsed and planned anew, and one with parameters took
 * two round trips (postgres.js describes it before binding). A named statement is parsed once per
 * connection and then bound and run in one round trip, which is what raw `sql` templates already get.
 *
 * Bound: at most NAMED_MAX distinct query texts are named; later ones run unnamed as before. Each
 * connection keeps one statement per named text (postgres.js and the database server alike), so a
 * text built per call (an `in (...)` list of varying length) cannot grow them without limit.
 */
import type postgres from 'postgres';

export const NAMED_MAX = 1000;

/** Decides per query text whether it is named, keeping the bound above. */
export function namedTexts(max = NAMED_MAX) {
  const named = new Set<string>();
  return (text: string) => named.has(text) || (named.size < max && !!named.add(text));
}

type Sql = postgres.Sql | postgres.TransactionSql;

/** `sql` with Drizzle's queries named; transactions and savepoints hand their callback the same. */
export function withNamedStatements<T extends Sql>(sql: T, allow: (text: string) => boolean = namedTexts()): T {
  return new Proxy(sql, {
    get(target, key, receiver) {
      if (key === 'unsafe') {
        return (text: string, params?: unknown[], options?: postgres.UnsafeQueryOptions) =>
          target.unsafe(text, params as postgres.ParameterOrJSON<never>[], { ...options, prepare: allow(text) });
      }
      if (key === 'begin' || key === 'savepoint') {
        return (...args: unknown[]) => {
          const fn = args.pop() as (tx: postgres.TransactionSql) => unknown;
          return (target as unknown as Record<string, (...a: unknown[]) => unknown>)[key]!(...args, (tx: postgres.TransactionSql) =>
            fn(withNamedStatements(tx, allow)),
          );
        };
      }
      return Reflect.get(target, key, receiver);
    },
  });
}
