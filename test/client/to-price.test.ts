import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toPrice } from '../../packages/client/src/index.js';
import { PRICE_DECIMAL_PLACES } from '../../packages/client/src/to-price.js';
import { Price } from '../../src/contract/common.js';
import { hasAtMostDecimals, UNITS_PER_PRICE } from '../../src/modules/shared/money.js';

/**
 * The client's `toPrice` against the server's own rule for a price's decimals
 * (`hasAtMostDecimals`, what the body validator checks). The run's property seed (printed at
 * the start) drives the random choices; PRICEBOOK_PROPERTY_SEED=N repeats them.
 */
const seed = fc.readConfigureGlobal().seed;
const RUNS = 2000;
/** Prices the API takes, as integer ten-thousandths. */
const priceUnits = fc.integer({ min: 0, max: 1_000_000_000 * UNITS_PER_PRICE - 1 });

describe('toPrice', () => {
  it('has the places of the API’s price schema', () => {
    expect(PRICE_DECIMAL_PLACES).toBe(Price['x-decimal-places']);
  });

  it.each([
    [1 + 14 / 100, 1.14],
    [0.1 + 0.2, 0.3],
    [6.5 * 1.14, 7.41],
    [1.00185, 1.0019],
    [1.00005, 1.0001],
    [1.23454, 1.2345],
    [0.00005, 0.0001],
    [0.00004999, 0],
    [2.5e-7, 0],
    [12.5, 12.5],
    [7, 7],
    [0, 0],
    [-0, 0],
    [999_999_999.99995, 1_000_000_000],
    [2 ** 60, 2 ** 60],
  ])('rounds %s to %s', (amount, price) => {
    expect(Object.is(toPrice(amount), price)).toBe(true);
  });

  it('turns the prices of a first program (a base price times 1 + i/100) into prices the API takes', () => {
    const prices = Array.from({ length: 100 }, (_, i) => 6.5 * (1 + i / 100));
    expect(prices.filter((price) => !hasAtMostDecimals(price, PRICE_DECIMAL_PLACES)).length).toBeGreaterThan(0);
    expect(prices.map(toPrice).filter((price) => !hasAtMostDecimals(price, PRICE_DECIMAL_PLACES))).toEqual([]);
  });

  it.each([NaN, Infinity, -Infinity, -0.01, -1e-9, -5])('refuses %s with a RangeError', (amount) => {
    expect(() => toPrice(amount)).toThrow(RangeError);
  });

  it('refuses what is not a number with a TypeError that names its type', () => {
    expect(() => toPrice('1.5' as unknown as number)).toThrow(new TypeError('toPrice takes a number, not string'));
    expect(() => toPrice(null as unknown as number)).toThrow(new TypeError('toPrice takes a number, not null'));
    expect(() => toPrice(1n as unknown as number)).toThrow(TypeError);
  });

  it('gives back every price the API takes as it is, and the sum of two as their exact sum', () => {
    fc.assert(
      fc.property(priceUnits, priceUnits, (a, b) => {
        expect(toPrice(a / UNITS_PER_PRICE)).toBe(a / UNITS_PER_PRICE);
        expect(toPrice(a / UNITS_PER_PRICE + b / UNITS_PER_PRICE)).toBe((a + b) / UNITS_PER_PRICE);
      }),
      { seed, numRuns: RUNS },
    );
  });

  it('answers, for any number below the API’s maximum, a price the API takes, at most half a ten-thousandth away, the same again', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 999_999_999, noNaN: true }), (amount) => {
        const price = toPrice(amount);
        expect(hasAtMostDecimals(price, PRICE_DECIMAL_PLACES)).toBe(true);
        // Half a unit, and the error of the double nearest the answer.
        expect(Math.abs(price - amount)).toBeLessThanOrEqual(0.5 / UNITS_PER_PRICE + Number.EPSILON * Math.max(1, amount));
        expect(toPrice(price)).toBe(price);
      }),
      { seed, numRuns: RUNS },
    );
  });

  it('rounds the decimal JavaScript prints, halves up: n + 0.5 ten-thousandths becomes n + 1', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 99_999_999_999 }), (units) => {
        const half = Number(`${Math.floor(units / UNITS_PER_PRICE)}.${String(units % UNITS_PER_PRICE).padStart(4, '0')}5`);
        expect(toPrice(half)).toBe((units + 1) / UNITS_PER_PRICE);
      }),
      { seed, numRuns: RUNS },
    );
  });
});
