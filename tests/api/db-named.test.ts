/**
 * Drizzle's queries run as named statements (src/server/db/named.ts): parsed once per connection,
 * then bound and run in one round trip. Read from the connection itself: a transaction keeps one.
 */
import { eq, sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { stores } from '../../src/server/db/schema';
import { readStores } from '../../src/server/availability/source';
import { frameFor } from '../../src/server/availability/grid';
import type { Db } from '../../src/server/db/types';
import { forEachEngine } from '../helpers/db';

forEachEngine(
  'named statements',
  (get, engine) => {
    it('keeps them for the life of a session: PGlite’s one connection is never recycled (its session outlives it)', () => {
      const { sql: client } = get();
      if (engine === 'pglite') expect(client.options.max_lifetime).toBeNull();
      else expect(client.options.max_lifetime).not.toBeNull();
    });

    it('names a Drizzle query once and runs it again by that name', async () => {
      const { db } = get();
      const named = await db.transaction(async (tx) => {
        for (const id of [1, 2, 3]) await tx.select({ id: stores.id }).from(stores).where(eq(stores.id, id));
        return tx.execute<{ statement: string; generic: number; custom: number }>(
          sql`select statement, generic_plans::int generic, custom_plans::int custom from pg_prepared_statements where statement like '%"stores"."id" = $1%'`,
        );
      });
      expect(named).toHaveLength(1);
      // Three runs of one statement: parsed once, planned at each run (custom plans until PostgreSQL judges a generic one).
      expect(named[0]!.generic + named[0]!.custom).toBe(3);
    });

    it('re-reads any stores after a change with one statement, not one per set of stores', async () => {
      const { db } = get();
      const frame = frameFor(new Date());
      const named = await db.transaction(async (tx) => {
        for (const ids of [[1], [2], [1, 3]]) expect((await readStores(tx as unknown as Db, frame, ids)).size).toBe(ids.length);
        return tx.execute<{ statement: string }>(sql`select statement from pg_prepared_statements where statement like '%from stores s join areas a%'`);
      });
      expect(named).toHaveLength(1);
    });
  },
  { seed: true },
);
