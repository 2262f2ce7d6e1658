/**
 * Prices travel as JSON numbers with at most 4 decimal places and are stored and added up as
 * integer ten-thousandths, so no binary floating point error can creep in.
 */
export const UNITS_PER_PRICE = 10_000;

/**
 * A price (a decimal with at most 4 places, already validated) as integer ten-thousandths.
 * Exact: the nearest double to a 4-place decimal times 10 000 rounds back to its integer.
 */
export function toPriceUnits(price: number): number {
  return Math.round(price * UNITS_PER_PRICE);
}

/** Ten-thousandths back to the JSON number that was sent (division is correctly rounded). */
export function fromPriceUnits(units: number): number {
  return Number(units) / UNITS_PER_PRICE;
}

/** True when the number, as JSON wrote it, has no more than `places` decimals. */
export function hasAtMostDecimals(value: number, places: number): boolean {
  const scale = 10 ** places;
  return Math.round(value * scale) / scale === value;
}
