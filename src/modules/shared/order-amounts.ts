import { MAX_ORDER_AMOUNT } from '../../contract/orders.js';
import { fromPriceUnits, toPriceUnits, UNITS_PER_PRICE } from './money.js';

/**
 * Order arithmetic runs in BigInt on integer ten-thousandths: 999 999 999.9999 × 1 000 000 is
 * beyond 2^53 in units, and binary floating point would round 0.0001 × 3 already.
 */
export const MAX_ORDER_UNITS = BigInt(MAX_ORDER_AMOUNT) * BigInt(UNITS_PER_PRICE);

/** A price (at most 4 decimals, already validated) as BigInt ten-thousandths. */
export function priceUnits(price: number): bigint {
  return BigInt(toPriceUnits(price));
}

export function lineTotalUnits(unitPriceUnits: bigint, quantity: number): bigint {
  return unitPriceUnits * BigInt(quantity);
}

/** Whether an amount may appear in an order: below MAX_ORDER_AMOUNT, so exact as a JSON number. */
export function isOrderAmount(units: bigint): boolean {
  return units >= 0n && units < MAX_ORDER_UNITS;
}

/**
 * Units (below MAX_ORDER_UNITS, so a safe integer) as the JSON number with those 4 decimals:
 * a decimal of at most 15 significant digits survives the trip through a double exactly.
 */
export function amountOf(units: bigint | number): number {
  return fromPriceUnits(Number(units));
}

/** The decimal text of an amount in units, for messages (no floating point). */
export function formatUnits(units: bigint): string {
  const scale = BigInt(UNITS_PER_PRICE);
  const fraction = (units % scale).toString().padStart(4, '0').replace(/0+$/, '');
  return fraction === '' ? `${units / scale}` : `${units / scale}.${fraction}`;
}
