/**
 * A server on a controlled clock (SUGU_CLOCK at 20:07 of tomorrow's business day, never the day the
 * machine's clock is in) is ready with the availability index of its own business day, and its
 * listing is answered from that index. Readiness once built the index for the machine's day: the
 * first request then built another, and a restarted server's first answers (the expiry of watch
 * holds among them) were read from a day that was not the server's.
 */
import { expect, it } from 'vitest';
import { forEachApp } from '../helpers/app';
import { watchClock, watchDay } from './watch-fixtures';

/** The business days of the index builds the server has logged, in order. */
const builds = (output: string) => [...output.matchAll(/"msg":"availability_index_built","date":"(\d{4}-\d{2}-\d{2})"/g)].map((m) => m[1]);

forEachApp(
  'ready on the server clock',
  (app) => {
    it("readiness builds the index for the server clock's business day, and the listing reads it without another build", async () => {
      const atReady = builds(app().output());
      expect(atReady[0]).toBe(watchDay);
      expect(new Set(atReady)).toEqual(new Set([watchDay]));

      const res = await app().fetch('/api/stores?per_page=50');
      expect(res.status).toBe(200);
      const listed = (await res.json()) as { items: { id: number }[]; total: number };
      expect(listed.total).toBeGreaterThan(0);
      expect(listed.items.length).toBeGreaterThan(0);
      expect(builds(app().output())).toEqual(atReady);
    });
  },
  watchClock(20, 7),
);
