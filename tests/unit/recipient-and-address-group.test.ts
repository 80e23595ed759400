import { describe, expect, it } from 'vitest';
import { normaliseRecipient } from '../../src/lib/contract/recipient';

describe('normaliseRecipient: one key per mailbox', () => {
  it.each([
    ['victim@example.net', 'victim@example.net'],
    [' Victim+1@Example.NET ', 'victim@example.net'],
    ['victim+a+b@example.net', 'victim@example.net'],
    ['v.i.c.t.i.m@example.net', 'v.i.c.t.i.m@example.net'],
    ['J.Doe+shop@GMail.com', 'jdoe@gmail.com'],
    ['j.d.o.e@googlemail.com', 'jdoe@gmail.com'],
    ['+only@example.net', '+only@example.net'],
  ])('%s → %s', (address, key) => expect(normaliseRecipient(address)).toBe(key));
});
