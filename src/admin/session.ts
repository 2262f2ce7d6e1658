/**
 * The API token of this tab: in sessionStorage only (gone when the tab closes, never shared
 * with other tabs), never in a URL, a cookie or a log.
 */
const TOKEN_KEY = 'pricebook.token';

export function storedToken(): string | undefined {
  return sessionStorage.getItem(TOKEN_KEY) ?? undefined;
}

export function storeToken(token: string): void {
  sessionStorage.setItem(TOKEN_KEY, token);
}

export function forgetToken(): void {
  sessionStorage.removeItem(TOKEN_KEY);
}
