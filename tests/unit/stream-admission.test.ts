import { afterEach, describe, expect, it, vi } from 'vitest';
import { admitStream, defaultStreamTotal, holdStream, openStreams } from '../../src/server/streamAdmission';
import { ApiError } from '../../src/server/http/api';

const limits = (soft: string) =>
  `Limit                     Soft Limit           Hard Limit           Units\nMax open files            ${soft}                1048576              files\n`;

describe('live stream admission', () => {
  afterEach(() => vi.useRealTimers());

  it('defaults the process cap to a quarter of the open-file limit, at most 2,000', () => {
    expect(defaultStreamTotal(limits('20000'))).toBe(2000);
    expect(defaultStreamTotal(limits('1024'))).toBe(256);
    expect(defaultStreamTotal(limits('unlimited'))).toBe(2000);
    expect(defaultStreamTotal(undefined)).toBe(2000);
  });

  it('admits 10 streams per client address (the default), refuses the next with 429 and Retry-After, and counts each release once', () => {
    const tickets = Array.from({ length: 10 }, () => admitStream('192.0.2.1'));
    const refused = (() => {
      try {
        admitStream('192.0.2.1');
      } catch (error) {
        return error as ApiError;
      }
    })();
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused?.status).toBe(429);
    expect(Number(refused?.options.headers?.['retry-after'])).toBeGreaterThan(0);
    expect(openStreams('192.0.2.2')).toBe(0);
    const other = admitStream('192.0.2.2');
    tickets[0]!.release();
    tickets[0]!.release();
    expect(openStreams('192.0.2.1')).toBe(9);
    admitStream('192.0.2.1').release();
    for (const t of [...tickets, other]) t.release();
    expect(openStreams()).toBe(0);
  });

  it('ends a held stream after its lifetime and gives its place back; a client that leaves gives it back too', async () => {
    vi.useFakeTimers();
    const source = () => new ReadableStream<Uint8Array>({ start: (c) => c.enqueue(new TextEncoder().encode(': ok\n\n')) });
    const held = holdStream(source(), admitStream('192.0.2.9'), 60_000).getReader();
    expect((await held.read()).done).toBe(false);
    expect(openStreams('192.0.2.9')).toBe(1);
    const next = held.read();
    vi.advanceTimersByTime(60_000);
    expect((await next).done).toBe(true);
    expect(openStreams('192.0.2.9')).toBe(0);
    const left = holdStream(source(), admitStream('192.0.2.9'), 60_000);
    await left.cancel();
    expect(openStreams('192.0.2.9')).toBe(0);
  });
});
