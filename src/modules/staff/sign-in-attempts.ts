/**
 * Who a sign-in's attempt at a password is counted against, besides its address: the account
 * (its e-mail key, known or not, and the account's sign-in generation, which `staff reset` and
 * `staff disable` raise) or, for a browser that brings a valid device cookie of that account,
 * the cookie's own bucket (docs/staff.md, "Throttling").
 */
export type AttemptOwner = { kind: 'account'; emailKey: string; generation: number } | { kind: 'device'; deviceId: string };

/** A place held in both buckets while a password is checked, or the wait when either is full. */
export type AttemptReservation = { granted: true; giveBack(): Promise<void> } | { granted: false; retryAfterSeconds: number };

/**
 * The sign-in throttle (the rate limiter's buckets). `reserve` takes one place in the owner's
 * bucket and one in the address's before a password is checked, so however many attempts run
 * at once, no more passwords are checked than the buckets hold; a place taken in one bucket is
 * given back when the other refuses. The caller gives both back when the password was right:
 * only failures stay counted.
 */
export interface SignInAttempts {
  reserve(owner: AttemptOwner, address: string): Promise<AttemptReservation>;
}
