import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalTimestamp } from './timestamps.js';

describe('canonical timestamps', () => {
  it.each([
    ['2026-11-21T10:00:00Z', '2026-11-21T10:00:00.000Z'],
    ['2026-11-21T10:00:00.5Z', '2026-11-21T10:00:00.500Z'],
    ['2026-11-21T10:00:00.123456Z', '2026-11-21T10:00:00.123Z'],
    ['2026-11-21t10:00:00z', '2026-11-21T10:00:00.000Z'],
    ['2026-11-21 10:00:00Z', '2026-11-21T10:00:00.000Z'],
    ['2026-11-21T10:00:00+02:00', '2026-11-21T08:00:00.000Z'],
    ['2026-11-21T01:30:00-0230', '2026-11-21T04:00:00.000Z'],
    ['2026-01-01T00:30:00+01', '2025-12-31T23:30:00.000Z'],
    ['2024-02-29T00:00:00Z', '2024-02-29T00:00:00.000Z'],
    ['0000-01-01T00:00:00Z', '0000-01-01T00:00:00.000Z'],
    ['9999-12-31T23:59:59.999Z', '9999-12-31T23:59:59.999Z'],
  ])('%s is %s', (text, canonical) => {
    expect(canonicalTimestamp(text)).toBe(canonical);
  });

  it.each([
    '2026-11-21',
    '2026-11-21T10:00:00',
    '2026-02-30T00:00:00Z',
    '2025-02-29T00:00:00Z',
    '2026-13-01T00:00:00Z',
    '2026-11-21T24:00:00Z',
    '2016-12-31T23:59:60Z',
    '2026-11-21T10:00:00+24:00',
    '0000-01-01T00:00:00+01:00',
    '9999-12-31T23:59:59-01:00',
    '+012026-11-21T10:00:00Z',
    'tomorrow',
    '',
  ])('refuses %j', (text) => {
    expect(canonicalTimestamp(text)).toBeUndefined();
  });

  it('orders canonical strings as it orders the moments', () => {
    const moment = fc.date({ min: new Date('0000-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59.999Z'), noInvalidDate: true });
    fc.assert(
      fc.property(moment, moment, (a, b) => {
        const [textA, textB] = [canonicalTimestamp(a.toISOString()), canonicalTimestamp(b.toISOString())];
        expect(textA).toBe(a.toISOString());
        expect(textA! < textB!).toBe(a.getTime() < b.getTime());
      }),
      { numRuns: 2000 },
    );
  });
});
