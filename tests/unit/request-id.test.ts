/** Which sent `X-Request-Id` a request keeps (src/server/http/requestId.ts): a short URL-safe token, nothing else. */
import { describe, expect, it } from 'vitest';
import { REQUEST_ID_MAX } from '../../src/lib/contract/limits';
import { requestIdOf, sentRequestId } from '../../src/server/http/requestId';

describe('request ids', () => {
  it.each(['lb-7f3a', '0f7c2b1e-5d4a-4c1e-9a7b-3e2d1c0b9a8f', 'Root=1:abc.def_~+/=', 'x'.repeat(REQUEST_ID_MAX)])('keeps the sent id %j', (sent) => {
    expect(sentRequestId(sent)).toBe(sent);
    expect(requestIdOf(sent)).toBe(sent);
  });

  it.each([null, undefined, '', 'has space', 'line\nbreak', 'quote"', '<tag>', 'semi;colon', 'ü', 'x'.repeat(REQUEST_ID_MAX + 1)])(
    'refuses %j and gives a new id',
    (sent) => {
      expect(sentRequestId(sent)).toBeUndefined();
      const given = requestIdOf(sent);
      expect(given).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(requestIdOf(sent)).not.toBe(given);
    },
  );
});
