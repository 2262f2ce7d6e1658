import { type Clock, isoTimestamp } from '../shared/clock.js';
import { AppError, invalidField, UniqueViolation } from '../shared/errors.js';
import { controlCharacterProblem } from '../../text/control-characters.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import type { AttemptContext, GuardedPasswordCheck } from './guarded-password-check.js';
import { DEFAULT_PASSWORD_COST, generateInitialPassword, hashPassword, normalizedPassword, passwordProblem } from './password-hash.js';
import { isStaffRole, STAFF_ROLES, type StaffRole } from './roles.js';
import { type StaffAccount, type StoredStaffAccount, withoutPasswordHash } from './staff-repository.js';

/** A new or reset account, the only time its one-time password is known. */
export interface IssuedStaffAccount extends StaffAccount {
  /** To be changed at the first sign-in; shown only here. */
  initialPassword: string;
}

export interface NewStaffMember {
  email: string;
  name: string;
  role: string;
}

const TOO_MANY_WRONG = 'Too many wrong passwords for this account or from this address; retry later';
const MAX_EMAIL = 254;
const MAX_NAME = 100;
/** Something@something, no white space: the address is a sign-in name, not mailed to. */
const EMAIL_FORMAT = /^[^\s@]+@[^\s@]+$/;

/** The key an e-mail is unique and looked up by: one account per e-mail, whatever its case. */
export function emailKeyOf(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * Staff accounts of a store (docs/staff.md): created, listed, disabled and reset by the CLI;
 * a member changes their own password. Disabling or resetting an account ends all its
 * sessions in the same transaction: the next request of any of them, to any instance, is
 * refused.
 */
export class StaffService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly passwords: GuardedPasswordCheck,
    /** log2 of scrypt's N for new hashes (`PRICEBOOK_PASSWORD_COST`). */
    private readonly passwordCost = DEFAULT_PASSWORD_COST,
  ) {}

  async create(storeId: number, member: NewStaffMember): Promise<IssuedStaffAccount> {
    const email = member.email.trim();
    const name = member.name.trim();
    const problem =
      emailProblem(email) ?? nameProblem(name) ?? (isStaffRole(member.role) ? undefined : `A role is one of ${STAFF_ROLES.join(', ')}; got '${member.role}'`);
    if (problem !== undefined) throw new AppError('validation_failed', problem);
    const initialPassword = generateInitialPassword();
    const passwordHash = await hashPassword(initialPassword, this.passwordCost);
    return this.uow.transaction(async (repos) => {
      if ((await repos.stores.find(storeId)) === undefined) throw new AppError('not_found', `Store ${storeId} not found`);
      try {
        const account = await repos.staff.insert({
          storeId,
          email,
          emailKey: emailKeyOf(email),
          name,
          role: member.role as StaffRole,
          passwordHash,
          createdAt: isoTimestamp(this.clock),
        });
        return { ...account, initialPassword };
      } catch (error) {
        if (error instanceof UniqueViolation)
          throw new AppError(
            'validation_failed',
            `A staff account with the e-mail '${email}' exists already (an e-mail names one account on the whole server)`,
          );
        throw error;
      }
    });
  }

  /** A store's accounts (disabled ones too), `limit` at most, after `afterId`; never a password hash. */
  async accountsOfStore(storeId: number, afterId: number, limit: number): Promise<StaffAccount[]> {
    if ((await this.uow.repos.stores.find(storeId)) === undefined) throw new AppError('not_found', `Store ${storeId} not found`);
    return this.uow.repos.staff.pageOfStore(storeId, afterId, limit);
  }

  /** The account of the store named by its id or its e-mail. */
  async find(storeId: number, idOrEmail: string): Promise<StaffAccount> {
    return withoutPasswordHash(await this.stored(storeId, idOrEmail));
  }

  /**
   * Disables the account and ends all its sessions at once; its sign-in buckets start empty
   * again on every instance and its device cookies are revoked (a new sign-in generation).
   * Disabling twice is not an error.
   */
  async disable(storeId: number, idOrEmail: string): Promise<StaffAccount> {
    const at = isoTimestamp(this.clock);
    return this.uow.transaction(async (repos) => {
      const account = await this.stored(storeId, idOrEmail);
      await repos.staff.disable(account.id, at);
      await repos.staff.endSessionsOf(account.id, at);
      await repos.staff.raiseSignInGeneration(account.id);
      return { ...withoutPasswordHash(account), disabledAt: account.disabledAt ?? at };
    });
  }

  /**
   * A new one-time password (to be changed at the next sign-in); ends all the account's
   * sessions, and empties its sign-in buckets on every instance and revokes its device cookies
   * (a new sign-in generation): the new password signs in at once, however many failures came before.
   */
  async reset(storeId: number, idOrEmail: string): Promise<IssuedStaffAccount> {
    const account = await this.stored(storeId, idOrEmail);
    const initialPassword = generateInitialPassword();
    const passwordHash = await hashPassword(initialPassword, this.passwordCost);
    const at = isoTimestamp(this.clock);
    await this.uow.transaction(async (repos) => {
      await repos.staff.setPassword(account.id, passwordHash, true);
      await repos.staff.endSessionsOf(account.id, at);
      await repos.staff.raiseSignInGeneration(account.id);
    });
    return { ...withoutPasswordHash(account), mustChangePassword: true, initialPassword };
  }

  /**
   * The member's own change: the current password must match; the new one must follow the
   * length rule and differ from it. Every other session of the account ends (one opened with
   * the old password elsewhere, say); the one that asked goes on. The current password is
   * checked as a sign-in's is, in the same buckets (a wrong one stays counted, a full bucket is
   * a 429 before the check), so a session taken over cannot guess the password either.
   */
  async changePassword(
    storeId: number,
    staffId: number,
    keepSessionId: number,
    currentPassword: string,
    newPassword: string,
    context: AttemptContext,
  ): Promise<void> {
    const account = await this.uow.repos.staff.find(storeId, staffId);
    if (account === undefined || account.disabledAt !== null) throw new AppError('unauthenticated', 'The session has ended: sign in again');
    const subject = { emailKey: emailKeyOf(account.email), generation: account.signInGeneration };
    if (!(await this.passwords.attempt(subject, currentPassword, account.passwordHash, true, context, TOO_MANY_WRONG))) {
      throw invalidField('currentPassword', 'is not the current password');
    }
    const problem =
      passwordProblem(newPassword) ??
      (normalizedPassword(newPassword) === normalizedPassword(currentPassword) ? 'The new password must differ from the current one' : undefined);
    if (problem !== undefined) throw invalidField('newPassword', problem);
    const passwordHash = await hashPassword(newPassword, this.passwordCost);
    const at = isoTimestamp(this.clock);
    await this.uow.transaction(async (repos) => {
      await repos.staff.setPassword(account.id, passwordHash, false);
      await repos.staff.endSessionsOf(account.id, at, keepSessionId);
    });
  }

  private async stored(storeId: number, idOrEmail: string): Promise<StoredStaffAccount> {
    if ((await this.uow.repos.stores.find(storeId)) === undefined) throw new AppError('not_found', `Store ${storeId} not found`);
    const account = /^\d+$/.test(idOrEmail)
      ? await this.uow.repos.staff.find(storeId, Number(idOrEmail))
      : await this.uow.repos.staff.findByEmailKey(emailKeyOf(idOrEmail));
    if (account === undefined || account.storeId !== storeId) throw new AppError('not_found', `No staff account '${idOrEmail}' in store ${storeId}`);
    return account;
  }
}

function emailProblem(email: string): string | undefined {
  if (email.length === 0 || email.length > MAX_EMAIL || !EMAIL_FORMAT.test(email))
    return `An e-mail must look like name@example.com (at most ${MAX_EMAIL} characters); got '${email}'`;
  const control = controlCharacterProblem(email);
  return control === undefined ? undefined : `An e-mail ${control}`;
}

function nameProblem(name: string): string | undefined {
  if (name.length === 0 || name.length > MAX_NAME) return `A display name must have 1 to ${MAX_NAME} characters`;
  const control = controlCharacterProblem(name);
  return control === undefined ? undefined : `A display name ${control}`;
}
