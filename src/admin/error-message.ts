import { PricebookError } from '@pricebook/client/browser';

/**
 * What the page says of a failure: the API's message, or, for an answer that was not the API's
 * (a proxy's error page), its status.
 */
export function errorMessage(error: unknown): string {
  if (error instanceof PricebookError && error.code === 0) return `The server answered ${error.status}`;
  return error instanceof Error ? error.message : String(error);
}
