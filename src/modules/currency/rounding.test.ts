import { describe, expect, it } from 'vitest';
import { currencyRounding, isCurrency, minorUnitDigits, percentageOff, type Rounding } from './rounding.js';

const toUnit: Rounding = { incrementUnits: 1, mode: 'half-up' };
const penny = (mode: Rounding['mode']): Rounding => ({ incrementUnits: 100, mode });

describe('rounding computed prices', () => {
  it('takes a percentage off exactly, half-up to 4 decimals for the amount shown, for the largest prices too', () => {
    // 0.0001 with 50 % off is 0.00005: rounds up to 0.0001; 0.0003 with 50 % off is 0.00015: 0.0002.
    expect(percentageOff(1, 500_000, toUnit)).toEqual({ priceUnits: 1, unroundedUnits: 1 });
    expect(percentageOff(3, 500_000, toUnit)).toEqual({ priceUnits: 2, unroundedUnits: 2 });
    expect(percentageOff(10_000, 333_333, toUnit).unroundedUnits).toBe(6667);
    expect(percentageOff(9_999_999_999_999, 1, toUnit).unroundedUnits).toBe(9_999_989_999_999);
    expect(percentageOff(9_999_999_999_999, 1_000_000, penny('up'))).toEqual({ priceUnits: 0, unroundedUnits: 0 });
    expect(percentageOff(12_345, 0, toUnit).priceUnits).toBe(12_345);
  });

  it('rounds the exact amount, not the 4-decimal one, to a multiple of the increment by the mode', () => {
    // 12.5 % off 19.99 is 17.49125.
    expect(percentageOff(199_900, 125_000, penny('half-up'))).toEqual({ priceUnits: 174_900, unroundedUnits: 174_913 });
    expect(percentageOff(199_900, 125_000, penny('up')).priceUnits).toBe(175_000);
    expect(percentageOff(199_900, 125_000, penny('down')).priceUnits).toBe(174_900);
    expect(percentageOff(199_900, 125_000, { incrementUnits: 500, mode: 'half-up' }).priceUnits).toBe(175_000);
    expect(percentageOff(199_900, 125_000, { incrementUnits: 10_000, mode: 'down' }).priceUnits).toBe(170_000);
    // 50 % off 0.2499 is exactly 0.12495: half-up to the penny is 0.12, though its 4-decimal amount 0.1250 would give 0.13.
    expect(percentageOff(2_499, 500_000, penny('half-up'))).toEqual({ priceUnits: 1_200, unroundedUnits: 1_250 });
    expect(percentageOff(1_250, 0, penny('half-up')).priceUnits).toBe(1_300);
    // An amount already on the increment stays, whatever the mode.
    for (const mode of ['half-up', 'up', 'down'] as const) expect(percentageOff(200_000, 100_000, penny(mode)).priceUnits).toBe(180_000);
  });

  it("knows ISO 4217 codes of money and each one's minor unit, as the standard gives it", () => {
    expect(['GBP', 'EUR', 'USD', 'JPY', 'BHD', 'XAF', 'CHF'].every(isCurrency)).toBe(true);
    expect(['gbp', 'XYZ', '', 'POUND', 'XXX', 'XTS', 'XAU', 'XDR'].some(isCurrency)).toBe(false);
    expect(['GBP', 'JPY', 'BHD', 'IQD', 'CLF'].map(minorUnitDigits)).toEqual([2, 0, 3, 3, 4]);
    expect(currencyRounding('JPY', 'up')).toEqual({ incrementUnits: 10_000, mode: 'up' });
    expect(currencyRounding('BHD', 'half-up')).toEqual({ incrementUnits: 10, mode: 'half-up' });
    expect(currencyRounding('GBP', 'down')).toEqual({ incrementUnits: 100, mode: 'down' });
  });
});
