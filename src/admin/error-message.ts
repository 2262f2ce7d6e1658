import { PricebookError } from '@pricebook/client/browser';

/**
 * What the page says of a failure: the API's message (for a 403, that the member's role does
 * not allow it), or, for an answer that was not the API's (a proxy's error page), its status.
 */
export function errorMessage(error: unknown): string {
  if (error instanceof PricebookError && error.code === 0) return `The server answered ${error.status}`;
  // A staff member's role lacks the scope: say that it is the role, not a fault.
  if (error instanceof PricebookError && error.status === 403) return `Your role does not allow this (${error.message}). Ask the store's owner if you need it.`;
  return error instanceof Error ? error.message : String(error);
}
