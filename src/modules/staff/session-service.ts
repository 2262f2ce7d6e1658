import { createHash, randomBytes } from 'node:crypto';
import { type Clock, isoTimestamp } from '../shared/clock.js';
import type { Principal } from '../stores/credential-service.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import type { AttemptContext, GuardedPasswordCheck } from './guarded-password-check.js';
import { DEFAULT_PASSWORD_COST, hashPassword } from './password-hash.js';
import { SCOPES_OF_ROLE } from './roles.js';
import { type StaffAccount, withoutPasswordHash } from './staff-repository.js';
import { emailKeyOf } from './staff-service.js';

export interface SessionExpiry {
  /** A session unused this long ends (ms). */
  idleMs: number;
  /** A session ends this long after its sign-in, however busy (ms). */
  absoluteMs: number;
}

/** A session just opened: the token goes into the cookie and is never stored. */
export interface OpenedSession {
  token: string;
  account: StaffAccount;
  /** Seconds until its absolute expiry: the cookie's Max-Age. */
  maxAgeSeconds: number;
  /** A new device cookie for the browser that signed in (docs/staff.md, "Throttling"). */
  deviceCookie: { value: string; maxAgeSeconds: number };
}

/** What a sign-in request brings besides the e-mail and password. */
export interface SignInContext extends AttemptContext {
  /** The session token the browser brought, ended when the new one opens. */
  replacedToken?: string | undefined;
}

const TOO_MANY = 'Too many failed sign-ins for this account or from this address; retry later';

/** 32 random bytes, base64url: 43 characters. */
const TOKEN_FORMAT = /^[A-Za-z0-9_-]{43}$/;
/** `last_seen_at` is written at most this often (and at most every tenth of the idle expiry). */
const TOUCH_INTERVAL_MS = 60_000;
/** A session is kept this long past its absolute expiry (ended ones too), then deleted. */
const KEPT_AFTER_EXPIRY_MS = 24 * 3600_000;

/**
 * Staff sign-in and the sessions it opens (docs/staff.md). A session lives in the database
 * and every request with its cookie reads it there (one indexed lookup by the token's
 * SHA-256), so sign-out, a disabled account or a reset ends it on every instance at once.
 */
export class StaffSessionService {
  /** Compared against when the e-mail is unknown: every sign-in costs one scrypt. Made at the first sign-in. */
  private dummyHash: Promise<string> | undefined;

  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly expiry: SessionExpiry,
    private readonly passwords: GuardedPasswordCheck,
    /** log2 of scrypt's N of the hash an unknown e-mail is checked against: a real account's cost. */
    private readonly passwordCost = DEFAULT_PASSWORD_COST,
  ) {}

  /**
   * A new session when the e-mail names an account not disabled and the password is its own;
   * undefined for any failure alike, after the same work (one indexed read, the buckets, one
   * scrypt). Throttled (`rate_limited`, before the password is checked) when the account's
   * bucket, or the device cookie's, or the address's is full; an unknown e-mail has a bucket
   * like any. Always a new token: a session id a client brings is never taken over (session
   * fixation); the one it replaces, if any, ends.
   */
  async signIn(email: string, password: string, context: SignInContext): Promise<OpenedSession | undefined> {
    const emailKey = emailKeyOf(email);
    const stored = await this.uow.repos.staff.findByEmailKey(emailKey);
    const hash = stored?.passwordHash ?? (await (this.dummyHash ??= hashPassword(randomBytes(16).toString('hex'), this.passwordCost)));
    const subject = { emailKey, generation: stored?.signInGeneration ?? 0 };
    const usable = stored !== undefined && stored.disabledAt === null;
    if (!(await this.passwords.attempt(subject, password, hash, usable, context, TOO_MANY)) || stored === undefined) return undefined;
    const { replacedToken } = context;
    const token = randomBytes(32).toString('base64url');
    const now = isoTimestamp(this.clock);
    await this.uow.transaction(async (repos) => {
      if (replacedToken !== undefined && TOKEN_FORMAT.test(replacedToken)) {
        const replaced = await repos.staff.findSession(tokenHash(replacedToken));
        if (replaced !== undefined) await repos.staff.endSession(replaced.id, now);
      }
      await repos.staff.insertSession({ tokenHash: tokenHash(token), staffId: stored.id, storeId: stored.storeId, createdAt: now });
    });
    const deviceCookie = await this.passwords.devices.issue(subject);
    return { token, account: withoutPasswordHash(stored), maxAgeSeconds: Math.floor(this.expiry.absoluteMs / 1000), deviceCookie };
  }

  /** The principal of a session that is open, unexpired and of an account not disabled; else undefined. */
  async authenticate(token: string): Promise<Principal | undefined> {
    if (!TOKEN_FORMAT.test(token)) return undefined;
    const session = await this.uow.repos.staff.findSession(tokenHash(token));
    if (session === undefined || session.endedAt !== null || session.account.disabledAt !== null) return undefined;
    const now = this.clock.now();
    const lastSeen = Date.parse(session.lastSeenAt);
    if (now >= Date.parse(session.createdAt) + this.expiry.absoluteMs || now >= lastSeen + this.expiry.idleMs) return undefined;
    if (now - lastSeen >= Math.min(TOUCH_INTERVAL_MS, this.expiry.idleMs / 10))
      await this.uow.repos.staff.touchSession(session.id, new Date(now).toISOString());
    const { account } = session;
    return {
      storeId: account.storeId,
      scopes: new Set(SCOPES_OF_ROLE[account.role]),
      actor: { type: 'staff', id: account.id, name: account.name },
      rateLimitBucket: `staff:${account.id}`,
      idempotencyOwnerId: -account.id,
      session: { id: session.id, mustChangePassword: account.mustChangePassword },
    };
  }

  /** The member a session belongs to, as `GET /v1/session` shows it. */
  async member(storeId: number, staffId: number): Promise<StaffAccount | undefined> {
    const stored = await this.uow.repos.staff.find(storeId, staffId);
    return stored && withoutPasswordHash(stored);
  }

  /**
   * Ends every session of the member, this one and those of other browsers: a member who signs
   * out, having left a session open on a shared machine, is signed out there too.
   */
  async signOut(staffId: number): Promise<void> {
    await this.uow.repos.staff.endSessionsOf(staffId, isoTimestamp(this.clock));
  }

  /** Deletes up to `limit` sessions a day past their absolute expiry (the maintenance loop's task); returns how many. */
  purgeExpired(now: number, limit: number): Promise<number> {
    return this.uow.repos.staff.deleteSessionsCreatedBefore(new Date(now - this.expiry.absoluteMs - KEPT_AFTER_EXPIRY_MS).toISOString(), limit);
  }
}

function tokenHash(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
