import type { Caller } from './api-caller.js';
import type { PasswordChangeInput, SignInInput, StaffMember, Store } from './types.js';

/**
 * `/v1/session`: a staff member's sign-in (docs/staff.md). For a page the API serves, whose
 * client has `sessionCookie: true`: the answer to `create` sets the session cookie, which the
 * browser then sends with every request. An API key has no session (`get` answers 401).
 */
export class SessionResource {
  constructor(private readonly api: Caller) {}

  /** Signs in; a wrong e-mail or password is a 401 (the same for both), too many failures a 429. */
  create(credentials: SignInInput): Promise<StaffMember> {
    return this.api.call('session.create', { body: credentials });
  }
  /** The signed-in member (401 without a live session). */
  get(): Promise<StaffMember> {
    return this.api.call('session.get');
  }
  /** Signs out: the session ends everywhere at once, and its cookie is cleared. */
  async delete(): Promise<void> {
    await this.api.call('session.delete');
  }
  /** Required after a first sign-in (`mustChangePassword`); the account's other sessions end. */
  async changePassword(change: PasswordChangeInput): Promise<void> {
    await this.api.call('session.changePassword', { body: change });
  }
}

/** `/v1/store`: the store the credential belongs to, with the currency of every amount it answers. */
export class StoreResource {
  constructor(private readonly api: Caller) {}

  /** Its id, name, currency (ISO 4217) and rounding. */
  get(): Promise<Store> {
    return this.api.call('store.get');
  }
}
