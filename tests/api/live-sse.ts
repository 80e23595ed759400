/**
 * A small Server-Sent Events reader for tests (what EventSource does, minus reconnecting), and
 * helpers to find stores and make bookings for the live-availability tests.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import { sql } from 'drizzle-orm';
import { openDb } from '../../src/server/db/client';
import type { Db } from '../../src/server/db/types';
import { publishAvailabilityChange } from '../../src/server/events';
import { stayFor, turnTimesOf } from '../../src/server/availability/rules';
import type { App } from '../helpers/app';

export interface SseEvent {
  id?: string;
  event: string;
  data: string;
}

export interface Availability {
  store_id: number;
  free_tables: number;
  next_slots: string[];
  /** The last change to the store the instance heard of. */
  rev?: number;
}

export class SseStream {
  readonly events: SseEvent[] = [];
  readonly comments: string[] = [];
  retry?: number;
  lastEventId?: string;
  ended = false;
  private wake: (() => void)[] = [];

  private constructor(
    readonly response: Response,
    private readonly controller: AbortController,
  ) {}

  /** Opens `pathname` on `app` and starts reading; throws unless it is a 200 event stream. */
  static async open(app: App, pathname: string, headers: Record<string, string> = {}): Promise<SseStream> {
    const controller = new AbortController();
    const res = await app.fetch(pathname, { headers: { accept: 'text/event-stream', ...headers }, signal: controller.signal });
    if (res.status !== 200) throw new Error(`stream answered ${res.status}: ${await res.text()}`);
    const s = new SseStream(res, controller);
    void s.read();
    return s;
  }

  private async read() {
    const decoder = new TextDecoder();
    let buffer = '';
    let current: Partial<SseEvent> & { data?: string } = {};
    try {
      for await (const chunk of this.response.body!) {
        buffer += decoder.decode(chunk, { stream: true });
        let nl: number;
        while ((nl = buffer.indexOf('\n')) >= 0) {
          const line = buffer.slice(0, nl).replace(/\r$/, '');
          buffer = buffer.slice(nl + 1);
          if (line === '') {
            if (current.data !== undefined) {
              const ev: SseEvent = { id: current.id, event: current.event ?? 'message', data: current.data };
              if (ev.id !== undefined) this.lastEventId = ev.id;
              this.events.push(ev);
            }
            current = {};
          } else if (line.startsWith(':')) this.comments.push(line.slice(1).trim());
          else {
            const i = line.indexOf(':');
            const field = i < 0 ? line : line.slice(0, i);
            const value = i < 0 ? '' : line.slice(i + 1).replace(/^ /, '');
            if (field === 'data') current.data = current.data === undefined ? value : `${current.data}\n${value}`;
            else if (field === 'event') current.event = value;
            else if (field === 'id') current.id = value;
            else if (field === 'retry') this.retry = Number(value);
          }
        }
        this.notify();
      }
    } catch {
      /* aborted */
    }
    this.ended = true;
    this.notify();
  }

  private notify() {
    const w = this.wake;
    this.wake = [];
    for (const f of w) f();
  }

  /** Resolves once `check` returns something truthy (re-checked after every chunk); fails after `ms`. */
  async until<T>(check: () => T | undefined | false, what: string, ms = 15_000): Promise<T> {
    const deadline = Date.now() + ms;
    for (;;) {
      const v = check();
      if (v) return v;
      if (this.ended) throw new Error(`stream ended while waiting for ${what}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no ${what} within ${ms} ms; got ${JSON.stringify(this.events.slice(-5))}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, Math.min(left, 250));
        this.wake.push(() => (clearTimeout(t), resolve()));
      });
    }
  }

  availability(): Availability[] {
    return this.events.filter((e) => e.event === 'availability').map((e) => JSON.parse(e.data) as Availability);
  }

  /** The latest state received per store. */
  latest(): Map<number, Availability> {
    return new Map(this.availability().map((a) => [a.store_id, a]));
  }

  /** Waits until every one of `storeIds` has been reported once. */
  snapshot(storeIds: readonly number[]): Promise<Map<number, Availability>> {
    return this.until(() => {
      const m = this.latest();
      return storeIds.every((id) => m.has(id)) && m;
    }, `a snapshot of ${storeIds.length} stores`);
  }

  /** Waits for the n-th (1-based) availability event about `storeId`. */
  nth(storeId: number, n: number): Promise<Availability> {
    return this.until(() => this.availability().filter((a) => a.store_id === storeId)[n - 1], `event #${n} for store ${storeId}`);
  }

  close() {
    this.controller.abort();
  }

  /** Resolves when the server ends the stream. */
  closedByServer(ms = 15_000): Promise<true> {
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error('stream still open')), ms);
      const check = () => (this.ended ? (clearTimeout(t), resolve(true)) : this.wake.push(check));
      check();
    });
  }
}

/** Polls `check` until it is truthy; fails after `ms`. */
export async function eventually<T>(check: () => T | undefined | false, what: string, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = check();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`no ${what} within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Stores open around the clock (about 9 % of the demo data), so tests work at any hour. */
export async function allDayStoreIds(db: Db, limit = 20): Promise<number[]> {
  const rows = await db.execute<{ store_id: number }>(sql`
    select store_id from store_hours group by store_id
    having count(*) = 7 and bool_and(opens_min = 0 and closes_min = 1440)
    order by store_id limit ${limit}`);
  return rows.map((r) => Number(r.store_id));
}

/** The same, read from a throwaway copy of the seeded embedded database every PGlite app starts from. */
export async function allDayStoreIdsOfTemplate(limit = 20): Promise<number[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sugu-live-tpl-'));
  fs.cpSync(inject('pgliteTemplate'), dir, { recursive: true });
  const h = await openDb({ dataDir: dir });
  try {
    return await allDayStoreIds(h.db, limit);
  } finally {
    await h.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

let codeSeq = 0;

/**
 * Takes a free table for a party at `start` straight in the database (as the booking service does:
 * a table diners may book, for the party's turn time; the exclusion constraint refuses a taken
 * table) and publishes the change. Returns the booking id.
 */
export async function bookDirectly(db: Db, storeId: number, party: number, start: string): Promise<number> {
  const tables = await db.execute<{ id: number; stay: number; turn_times: [number, number][] }>(sql`
    select t.id, s.stay_minutes as stay, s.turn_times from store_tables t join stores s on s.id = t.store_id
    where t.store_id = ${storeId} and t.online and t.min_party <= ${party} and ${party} <= t.max_party order by t.max_party, t.id`);
  for (const t of tables) {
    const stay = stayFor({ stayMinutes: Number(t.stay), turnTimes: turnTimesOf(t.turn_times) }, party);
    const end = new Date(new Date(start).getTime() + stay * 60_000);
    try {
      const rows = await db.execute<{ id: number }>(sql`
        insert into bookings (code, store_id, table_id, party_size, starts_at, ends_at, guest_name, guest_name_kana, guest_phone, guest_email)
        values (${`LT-${process.pid}-${++codeSeq}-${Date.now() % 100000}`}, ${storeId}, ${t.id}, ${party}, ${start}::timestamptz, ${end.toISOString()}::timestamptz,
                '試験 太郎', 'シケン タロウ', '090-0000-0000', 'live-test@example.jp')
        returning id`);
      await publishAvailabilityChange(db, [storeId]);
      return Number(rows[0]!.id);
    } catch (err) {
      const code = (err as { cause?: { code?: string }; code?: string }).cause?.code ?? (err as { code?: string }).code;
      if (code !== '23P01') throw err;
    }
  }
  throw new Error(`no free table at store ${storeId} for ${party} at ${start}`);
}
