/** Decimal places a price may have in the API (its `Price` schema's `x-decimal-places`). */
export const PRICE_DECIMAL_PLACES = 4;

/**
 * A number computed in JavaScript as the API takes a price: rounded to 4 decimal places, halves
 * up (`6.5 * 1.14` = 7.409999999999999 → 7.41, `0.1 + 0.2` → 0.3, `1.00185` → 1.0019).
 *
 * It rounds the decimal JavaScript prints for the number (the shortest that reads back as the
 * same number), not the binary fraction behind it, whose tail is an artefact: `1.00185` is
 * stored as 1.0018499999999999…, and rounding that (`Math.round(n * 10000) / 10000`) gives 1.0018. The answer is the number
 * nearest that 4-place decimal, which JSON writes with at most 4 decimals.
 *
 * Throws a TypeError for what is not a number, and a RangeError for NaN, an infinity or a
 * negative number (`-0` is 0). The API's upper bound (below 1 000 000 000) is its own check.
 */
export function toPrice(amount: number): number {
  if (typeof amount !== 'number') throw new TypeError(`toPrice takes a number, not ${amount === null ? 'null' : typeof amount}`);
  if (!Number.isFinite(amount)) throw new RangeError(`A price must be a finite number, not ${String(amount)}`);
  if (amount < 0) throw new RangeError(`A price cannot be negative: ${String(amount)}`);
  if (Number.isInteger(amount)) return amount + 0; // -0 becomes 0
  // Below 0.000001 JavaScript writes an exponent; all of those round to 0.
  if (amount < 1e-6) return 0;
  // A number that is not an integer is below 2 ** 53, so it is written in fixed notation.
  const [whole = '0', fraction = ''] = String(amount).split('.');
  if (fraction.length <= PRICE_DECIMAL_PLACES) return amount;
  const kept = fraction.slice(0, PRICE_DECIMAL_PLACES);
  const roundsUp = fraction.charAt(PRICE_DECIMAL_PLACES) >= '5';
  const units = (BigInt(whole + kept) + (roundsUp ? 1n : 0n)).toString().padStart(PRICE_DECIMAL_PLACES + 1, '0');
  return Number(`${units.slice(0, -PRICE_DECIMAL_PLACES)}.${units.slice(-PRICE_DECIMAL_PLACES)}`);
}
