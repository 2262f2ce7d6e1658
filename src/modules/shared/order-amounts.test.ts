import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { amountOf, formatUnits, isOrderAmount, lineTotalUnits, MAX_ORDER_UNITS, priceUnits } from './order-amounts.js';

describe('order amounts', () => {
  it('every amount below the limit is exact as a JSON number: its text is its 4-decimal value', () => {
    const units = fc.bigInt({ min: 0n, max: MAX_ORDER_UNITS - 1n });
    fc.assert(
      fc.property(units, (value) => JSON.stringify(amountOf(value)) === formatUnits(value)),
      { numRuns: 20_000 },
    );
    for (const edge of [0n, 1n, 9_999n, 10_000n, MAX_ORDER_UNITS - 1n]) expect(JSON.stringify(amountOf(edge))).toBe(formatUnits(edge));
  });

  it('multiplies exactly where binary floating point does not', () => {
    expect(formatUnits(lineTotalUnits(priceUnits(0.0001), 999_999))).toBe('99.9999');
    expect(formatUnits(lineTotalUnits(priceUnits(999_999_999.9999), 3))).toBe('2999999999.9997');
    expect(formatUnits(lineTotalUnits(priceUnits(4.2), 3))).toBe('12.6');
    // Beyond 2^53 units: exact in BigInt, refused by the limit.
    const largest = lineTotalUnits(priceUnits(999_999_999.9999), 1_000_000);
    expect(formatUnits(largest)).toBe('999999999999900');
    expect(isOrderAmount(largest)).toBe(false);
    expect(isOrderAmount(MAX_ORDER_UNITS - 1n)).toBe(true);
    expect(isOrderAmount(MAX_ORDER_UNITS)).toBe(false);
  });
});
