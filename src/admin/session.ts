import type { StaffMember } from '@pricebook/client/browser';

/**
 * The signed-in staff member, as the API last answered it (sign-in or `GET /v1/session`). The
 * page holds no credential: the session is an HttpOnly cookie the browser keeps and sends, which
 * no script (this page's, or one injected) can read. This is only what the page shows and
 * decides by (the name in the header, whether to offer changes); the API decides what is allowed.
 */
let member: StaffMember | undefined;

export function signedInMember(): StaffMember | undefined {
  return member;
}

export function setSignedInMember(signedIn: StaffMember | undefined): void {
  member = signedIn;
}

/** Whether the member's role changes prices (a viewer only reads: the page offers no change). */
export function canChange(signedIn: StaffMember | undefined = member): boolean {
  return signedIn !== undefined && signedIn.role !== 'viewer';
}

/**
 * Whether the member's store requires approval of price changes (`GET /v1/store`'s
 * `requireApproval`, asked once a sign-in with the currency): there, staff change prices only
 * through change sets, and the API refuses their direct writes (code 18).
 */
let storeRequiresApproval = false;

export function setApprovalRequired(required: boolean): void {
  storeRequiresApproval = required;
}

export function approvalRequired(): boolean {
  return storeRequiresApproval;
}

/** Whether the page offers direct changes of prices: an editor's role, on a store that does not require approval. */
export function canChangePrices(signedIn: StaffMember | undefined = member): boolean {
  return canChange(signedIn) && !storeRequiresApproval;
}

/** The key an earlier version of the page kept an API token under in sessionStorage: removed on load. */
export const FORMER_TOKEN_KEY = 'pricebook.token';
