import { PricebookError } from '@pricebook/client/browser';
import { ERROR_CODES } from '../contract/error-codes.js';

/** How a failure is read. */
export interface ErrorReading {
  /**
   * The member's role has the scope the action needs (an approval offered to an approver): a 403
   * is then a rule's refusal (nobody approves their own set), said in the server's words, not
   * put down to the role.
   */
  roleAllows?: boolean;
}

/**
 * What the page says of a failure: the API's message (for a 403, that the member's role does
 * not allow it, unless `roleAllows`), or, for an answer that was not the API's (a proxy's error
 * page), its status.
 */
export function errorMessage(error: unknown, reading: ErrorReading = {}): string {
  if (error instanceof PricebookError && error.code === 0) return `The server answered ${error.status}`;
  // The store requires approval of price changes (docs/change-sets.md, "Approval"): the API's message says where they go.
  if (error instanceof PricebookError && error.code === ERROR_CODES.approval_required) return `${error.message}.`;
  // A staff member's role lacks the scope: say that it is the role, not a fault.
  if (error instanceof PricebookError && error.status === 403 && reading.roleAllows === true) return `${error.message}.`;
  if (error instanceof PricebookError && error.status === 403) return `Your role does not allow this (${error.message}). Ask the store's owner if you need it.`;
  return error instanceof Error ? error.message : String(error);
}
