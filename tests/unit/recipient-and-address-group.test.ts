import { describe, expect, it } from 'vitest';
import { normaliseRecipient } from '../../src/lib/contract/recipient';
import { addressGroup } from '../../src/server/http/client';

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

describe('addressGroup: IPv4 alone, IPv6 by its /64', () => {
  it.each([
    ['192.0.2.7', '192.0.2.7'],
    ['::ffff:192.0.2.7', '192.0.2.7'],
    ['2001:db8:1:2::1', '2001:db8:1:2::/64'],
    ['2001:DB8:1:2:ffff:ffff:ffff:ffff', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['2001:db8:1:2:3:4:192.0.2.1', '2001:db8:1:2::/64'],
  ])('%s → %s', (address, group) => expect(addressGroup(address)).toBe(group));

  it('tells neighbouring /64s apart', () => expect(addressGroup('2001:db8:1:3::1')).not.toBe(addressGroup('2001:db8:1:2::1')));
});
