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

/** The key an earlier version of the page kept an API token under in sessionStorage: removed on load. */
export const FORMER_TOKEN_KEY = 'pricebook.token';
