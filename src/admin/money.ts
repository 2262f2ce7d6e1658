/**
 * Prices as staff read them: in the store's currency (`GET /v1/store`, asked once a sign-in),
 * with the currency's own decimals at least and every stored decimal (up to 4) when there are
 * more: 17.4913 stays 17.4913, 6.5 reads £6.50. Before the store is known, the plain number.
 */
let formatter: Intl.NumberFormat | undefined;
let storeCurrency: string | undefined;

/** The store's ISO 4217 currency, or undefined to show plain numbers (signed out). */
export function setCurrency(currency: string | undefined): void {
  storeCurrency = currency;
  formatter = undefined;
  if (currency === undefined) return;
  try {
    formatter = new Intl.NumberFormat(undefined, { style: 'currency', currency, maximumFractionDigits: 4 });
  } catch {
    // A code the browser does not know: plain numbers, the code beside them.
  }
}

export function currency(): string | undefined {
  return storeCurrency;
}

/** `17.4913` as `£17.4913`, `6.5` as `£6.50`; null (no price) as an empty string. */
export function money(value: number | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (formatter !== undefined) return formatter.format(value);
  return storeCurrency === undefined ? String(value) : `${String(value)} ${storeCurrency}`;
}
