/**
 * Memory given back once the server is quiet (src/server/idleTrim.ts): when the collection is due,
 * and that it really returns the pages V8 keeps after an ordinary collection.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { IDLE_TRIM, giveMemoryBack, trimDue } from '../../src/server/idleTrim';

describe('when memory is given back', () => {
  const quiet = IDLE_TRIM.quietMs;
  const t0 = 1_000_000;
  const MB = 1024 * 1024;
  const fresh = { lastRequestAt: t0, lastTrimAt: null, activity: true, inFlight: 0, rssAfterTrim: null };

  it('after the start (seed, migrations, index) once nothing has been asked for a while', () => {
    expect(trimDue(fresh, t0 + quiet - 1, 300 * MB)).toBe(false);
    expect(trimDue(fresh, t0 + quiet, 300 * MB)).toBe(true);
  });

  it('not while a request is being answered, however long (the first /readyz waits for the whole start)', () => {
    expect(trimDue({ ...fresh, inFlight: 1 }, t0 + 100 * quiet, 300 * MB)).toBe(false);
  });

  it('not while requests keep coming, nor again without new requests', () => {
    expect(trimDue(fresh, t0 + 1000, 300 * MB)).toBe(false);
    expect(trimDue({ ...fresh, lastTrimAt: t0 + quiet, activity: false, rssAfterTrim: 100 * MB }, t0 + 100 * quiet, 300 * MB)).toBe(false);
  });

  it('at most once in its interval, and only when the process has grown since', () => {
    const after = { ...fresh, lastRequestAt: t0 + 1000, lastTrimAt: t0, rssAfterTrim: 140 * MB };
    const grown = 140 * MB + IDLE_TRIM.growthBytes;
    expect(trimDue(after, t0 + IDLE_TRIM.minIntervalMs - 1, grown)).toBe(false);
    expect(trimDue(after, t0 + IDLE_TRIM.minIntervalMs, grown)).toBe(true);
    expect(trimDue(after, t0 + IDLE_TRIM.minIntervalMs, grown - 1)).toBe(false);
  });
});

describe('giving memory back', () => {
  const anonMiB = () => Number(fs.readFileSync('/proc/self/status', 'utf8').match(/RssAnon:\s+(\d+)/)?.[1]) / 1024;

  it('returns the heap pages an ordinary collection keeps, without gc on the global object', async () => {
    // About 150 MB of short-lived objects, promoted and then dropped.
    let kept: unknown[] | null = [];
    for (let i = 0; i < 1_500_000; i++) kept.push({ i, s: `x${i}`, a: [i, i] });
    const before = anonMiB();
    kept = null;
    const ms = giveMemoryBack();
    expect(ms).not.toBeNull();
    expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
    // V8's background threads unmap the pages a moment later.
    let after = anonMiB();
    for (let i = 0; i < 100 && before - after < 80; i++) {
      await new Promise((r) => setTimeout(r, 50));
      after = anonMiB();
    }
    expect(before - after).toBeGreaterThanOrEqual(80);
  });
});
