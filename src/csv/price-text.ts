/** A price as a CSV cell: the shortest decimal that is exactly it (12.5, 0.1, 3). */
export function priceText(price: number): string {
  return String(price);
}
