/**
 * Prices as staff read them: in the store's currency (`GET /v1/store`, asked once a sign-in),
 * with the currency's own decimals at least and every stored decimal (up to 4) when there are
 * more: 17.4913 stays 17.4913, 6.5 reads £6.50. Before the store is known, the plain number.
 */
let storeCurrency: string | undefined;

/** The store's ISO 4217 currency, or undefined to show plain numbers (signed out). */
export function setCurrency(currency: string | undefined): void {
  storeCurrency = currency;
}

export function currency(): string | undefined {
  return storeCurrency;
}

/** `17.4913` as `£17.4913`, `6.5` as `£6.50`; null (no price) as an empty string. */
export function money(value: number | null | undefined): string {
  if (value === null || value === undefined) return '';
  return storeCurrency === undefined ? String(value) : moneyIn(value, storeCurrency);
}

const formatters = new Map<string, Intl.NumberFormat | null>();

/** An amount in a given currency (an order's or a quote's own), as `money` shows the store's; a code the browser does not know: the plain number and the code. */
export function moneyIn(value: number, currencyCode: string): string {
  let format = formatters.get(currencyCode);
  if (format === undefined) {
    try {
      format = new Intl.NumberFormat(undefined, { style: 'currency', currency: currencyCode, maximumFractionDigits: 4 });
    } catch {
      format = null;
    }
    formatters.set(currencyCode, format);
  }
  return format === null ? `${String(value)} ${currencyCode}` : format.format(value);
}
