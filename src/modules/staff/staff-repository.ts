import type { StaffRole } from './roles.js';

/** A staff account as the CLI and the API show it: never its password hash. */
export interface StaffAccount {
  id: number;
  storeId: number;
  email: string;
  name: string;
  role: StaffRole;
  mustChangePassword: boolean;
  createdAt: string;
  disabledAt: string | null;
}

export interface StoredStaffAccount extends StaffAccount {
  passwordHash: string;
  /**
   * Part of the account's sign-in bucket key and of every device cookie's MAC: `staff reset`
   * and `staff disable` raise it, which empties the account's buckets on every instance (the
   * next sign-in counts in a new one) and revokes its device cookies. 0 for an unknown e-mail.
   */
  signInGeneration: number;
}

/** The account without its password hash, for anything shown. */
export function withoutPasswordHash(stored: StoredStaffAccount): StaffAccount {
  const { id, storeId, email, name, role, mustChangePassword, createdAt, disabledAt } = stored;
  return { id, storeId, email, name, role, mustChangePassword, createdAt, disabledAt };
}

/** A session with its account, as every request with the cookie reads it (one indexed lookup). */
export interface StoredSession {
  id: number;
  createdAt: string;
  lastSeenAt: string;
  endedAt: string | null;
  account: StaffAccount;
}

export interface NewStaffAccount {
  storeId: number;
  email: string;
  emailKey: string;
  name: string;
  role: StaffRole;
  passwordHash: string;
  createdAt: string;
}

export interface StaffRepository {
  /** Throws UniqueViolation('email') when an account of any store has the e-mail. */
  insert(account: NewStaffAccount): Promise<StaffAccount>;
  /** Up to `limit` accounts of a store with ids above `afterId`, ascending, disabled ones too. */
  pageOfStore(storeId: number, afterId: number, limit: number): Promise<StaffAccount[]>;
  find(storeId: number, id: number): Promise<StoredStaffAccount | undefined>;
  findByEmailKey(emailKey: string): Promise<StoredStaffAccount | undefined>;
  /** Marks it disabled (once: a second call keeps the first time). */
  disable(id: number, disabledAt: string): Promise<void>;
  setPassword(id: number, passwordHash: string, mustChangePassword: boolean): Promise<void>;
  /** Raises the account's sign-in generation by one. */
  raiseSignInGeneration(id: number): Promise<void>;
  /**
   * The device cookies' signing key (base64url): the stored one, or `proposed` stored now when
   * there is none yet. Instances racing to store theirs all get the one that won.
   */
  deviceCookieKey(proposed: string, createdAt: string): Promise<string>;

  insertSession(session: { tokenHash: string; staffId: number; storeId: number; createdAt: string }): Promise<number>;
  findSession(tokenHash: string): Promise<StoredSession | undefined>;
  touchSession(id: number, lastSeenAt: string): Promise<void>;
  endSession(id: number, endedAt: string): Promise<void>;
  /** Ends every open session of the account but `except`; returns how many. */
  endSessionsOf(staffId: number, endedAt: string, except?: number): Promise<number>;
  /** Deletes up to `limit` sessions created before `before`, oldest first; returns how many. */
  deleteSessionsCreatedBefore(before: string, limit: number): Promise<number>;
}
