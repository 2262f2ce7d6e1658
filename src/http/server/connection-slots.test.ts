import { describe, expect, it } from 'vitest';
import { addressGroupOf } from './connection-slots.js';

describe('addressGroupOf', () => {
  it('counts an IPv4 address as itself, also when written as an IPv4-mapped IPv6 address', () => {
    expect(addressGroupOf('203.0.113.7')).toBe('203.0.113.7');
    expect(addressGroupOf('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressGroupOf('::FFFF:203.0.113.7')).toBe('203.0.113.7');
  });

  it('counts an IPv6 address by its /64, however it is written', () => {
    const group = '2001:db8:1:2::/64';
    expect(addressGroupOf('2001:db8:1:2:3:4:5:6')).toBe(group);
    expect(addressGroupOf('2001:0DB8:0001:0002:ffff::1')).toBe(group);
    expect(addressGroupOf('2001:db8:1:2::')).toBe(group);
    expect(addressGroupOf('2001:db8:1:3::1')).not.toBe(group);
    expect(addressGroupOf('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressGroupOf('::1')).toBe('0:0:0:0::/64');
    expect(addressGroupOf('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressGroupOf('64:ff9b::203.0.113.7')).toBe('64:ff9b:0:0::/64');
  });
});
