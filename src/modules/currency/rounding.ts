import currencyCodes from 'currency-codes';
import { UNITS_PER_PRICE } from '../shared/money.js';

/**
 * How an amount the server computes (a percentage list's price) becomes one it charges
 * (docs/pricing.md, "Rounding"): to a multiple of an increment, half-up, up or down.
 */
export const ROUNDING_MODES = ['half-up', 'up', 'down'] as const;
export type RoundingMode = (typeof ROUNDING_MODES)[number];

export function isRoundingMode(value: string): value is RoundingMode {
  return (ROUNDING_MODES as readonly string[]).includes(value);
}

/** A rounding: to a multiple of `incrementUnits` ten-thousandths, by `mode`. */
export interface Rounding {
  incrementUnits: number;
  mode: RoundingMode;
}

/**
 * ISO 4217 codes that name no money a store could price in: precious metals, bond-market
 * units, the SDR, the test code and "no currency".
 */
const NOT_MONEY = new Set(['XAU', 'XAG', 'XPD', 'XPT', 'XBA', 'XBB', 'XBC', 'XBD', 'XDR', 'XSU', 'XUA', 'XTS', 'XXX']);

/** Whether a store may have this currency: an ISO 4217 code (upper case) of money, from the standard's own list. */
export function isCurrency(code: string): boolean {
  return !NOT_MONEY.has(code) && currencyCodes.code(code)?.code === code;
}

/** Digits after the point of the currency's minor unit, as ISO 4217 gives it (2 for GBP, 0 for JPY, 3 for BHD, 4 for CLF). */
export function minorUnitDigits(currency: string): number {
  return currencyCodes.code(currency)?.digits ?? 2;
}

/** The store's rounding: to its currency's minor unit (0.01 for GBP), by its mode. */
export function currencyRounding(currency: string, mode: RoundingMode): Rounding {
  return { incrementUnits: UNITS_PER_PRICE / 10 ** Math.min(4, minorUnitDigits(currency)), mode };
}

/** `numerator / denominator` (non-negative BigInts) rounded to a whole number by `mode`. */
function divideRounded(numerator: bigint, denominator: bigint, mode: RoundingMode): bigint {
  const quotient = numerator / denominator;
  const remainder = numerator % denominator;
  if (remainder === 0n || mode === 'down') return quotient;
  if (mode === 'up') return quotient + 1n;
  return 2n * remainder >= denominator ? quotient + 1n : quotient;
}

/**
 * A percentage off a catalog price, exactly (BigInt: a price of 10^13 units times 10^6 is
 * beyond a double's exact integers): `unroundedUnits` to 4 decimals half-up, as the amount
 * is shown; `priceUnits` rounded from the exact amount to the rounding's increment, as it
 * is charged. Rounding the exact amount, not the 4-decimal one, so half-up never rounds twice.
 */
export function percentageOff(catalogUnits: number, percentageUnits: number, rounding: Rounding): { priceUnits: number; unroundedUnits: number } {
  const kept = BigInt(catalogUnits) * BigInt(1_000_000 - percentageUnits);
  const increment = BigInt(rounding.incrementUnits);
  return {
    unroundedUnits: Number(divideRounded(kept, 1_000_000n, 'half-up')),
    priceUnits: Number(divideRounded(kept, 1_000_000n * increment, rounding.mode) * increment),
  };
}
