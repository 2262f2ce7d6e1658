import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { type Clock, isoTimestamp } from '../shared/clock.js';
import { codePointName, controlCharacterProblem } from '../../text/control-characters.js';
import { isCurrency, isRoundingMode, ROUNDING_MODES, type RoundingMode } from '../currency/rounding.js';
import { type Answer, thenAnswer } from '../shared/answer.js';
import { AppError } from '../shared/errors.js';
import type { Actor } from '../history/history-entry.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import { CREDENTIAL_TRUSTED_MS, CredentialCache, REVOCATION_MARGIN_MS } from './credential-cache.js';
import { DEFAULT_SCOPES, type Scope } from './scopes.js';
import type { ApiKey, ListedApiKey, Store, StoreMoney, StoredApiKey } from './store-repository.js';

/** A new credential, the only time its secret and token are known. */
export interface IssuedCredential extends Omit<ApiKey, 'revokedAt' | 'createdAt'> {
  /** Only when one was given. */
  name?: string;
  /** Basic password. */
  secret: string;
  /** Bearer token: `<key>.<secret>`. */
  token: string;
}

/** The caller behind an authenticated request: a credential, or a staff member's session. */
export interface Principal {
  storeId: number;
  scopes: ReadonlySet<Scope>;
  actor: Actor;
  /**
   * The leaky bucket the caller's requests fill: `key:<id>` for a credential, `staff:<id>` for
   * a staff member (shared by the member's sessions, apart from every credential's).
   */
  rateLimitBucket: string;
  /**
   * Whose `Idempotency-Key`s these are: a credential's id, or a staff member's id negated.
   * Credential ids are positive (0 marks records from before keys were per credential), so the
   * two never meet.
   */
  idempotencyOwnerId: number;
  /** Set for a staff member's session. */
  session?: StaffSessionState;
}

/** What a request made with a staff session knows of it. */
export interface StaffSessionState {
  id: number;
  /** Until the member sets a password, only the session's own operations are allowed. */
  mustChangePassword: boolean;
}

const KEY_PREFIX = 'pk_';
/** `pk_` and base64url, at most 64 characters in all (issued keys have 24 after the prefix). */
const KEY_FORMAT = /^pk_[A-Za-z0-9_-]{1,61}$/;
const SECRET_PREFIX = 'sk_';
/** Compared against when the key is unknown, so both paths cost the same. */
const DUMMY_HASH = sha256(randomBytes(32).toString('hex'));
/** A credential's name: 1 to 100 characters, no control characters, not only digits (those are ids). */
const MAX_KEY_NAME = 100;
/**
 * Format characters (bidirectional overrides, zero-width spaces) and line or paragraph
 * separators: a terminal shows a name carrying one as another name (`stores list` and
 * `keys list` print names as they are), and `keys revoke NAME` could not be typed to match it.
 */
const INVISIBLE_FORMATTING = /[\p{Cf}\p{Zl}\p{Zp}]/u;
/** Credentials sharing a name that a revocation by name lists when it refuses, at most. */
const NAME_MATCHES_SHOWN = 20;

/** Why `name` cannot name a credential, or undefined when it can. */
export function keyNameProblem(name: string): string | undefined {
  if (name.length === 0 || name.length > MAX_KEY_NAME) return `A credential name must have 1 to ${MAX_KEY_NAME} characters`;
  if (/^\d+$/.test(name)) return 'A credential name must not be only digits (those name a credential by its id)';
  const shown = shownNameProblem(name);
  if (shown !== undefined) return `A credential name ${shown}`;
  if (name.trim() !== name) return 'A credential name must not start or end with white space';
  return undefined;
}

/**
 * Why a store's or a credential's name would not show as itself in a terminal (`stores list`,
 * `keys list`): a control character, or an invisible formatting one.
 */
function shownNameProblem(name: string): string | undefined {
  const control = controlCharacterProblem(name);
  if (control !== undefined) return control;
  const invisible = INVISIBLE_FORMATTING.exec(name);
  if (invisible === null) return undefined;
  const position = [...name.slice(0, invisible.index)].length + 1;
  return `must not contain invisible formatting characters (${codePointName(invisible[0].codePointAt(0)!)} at position ${position})`;
}

export class CredentialService {
  private readonly cache: CredentialCache;

  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {
    this.cache = new CredentialCache((key) => this.uow.repos.apiKeys.findByKey(key));
  }

  /** A new store: its currency (ISO 4217, default GBP) and rounding (default half-up) price what the server computes. */
  createStore(name: string, money: StoreMoney = DEFAULT_STORE_MONEY): Promise<Store> {
    const trimmed = name.trim();
    if (trimmed === '' || trimmed.length > 255) {
      throw new AppError('validation_failed', 'A store name must have 1 to 255 characters');
    }
    const shown = shownNameProblem(trimmed);
    if (shown !== undefined) throw new AppError('validation_failed', `A store name ${shown}`);
    return this.uow.repos.stores.insert(trimmed, checkedMoney(money), isoTimestamp(this.clock));
  }

  /** A store as it is now (`GET /v1/store`, the credential's own). */
  async store(storeId: number): Promise<Store> {
    const store = await this.uow.repos.stores.find(storeId);
    if (store === undefined) throw new AppError('not_found', `Store ${storeId} not found`);
    return store;
  }

  /** Changes a store's currency and rounding (its rounding as it is when none is given); the store afterwards. */
  async setMoney(storeId: number, money: { currency: string; rounding?: RoundingMode }): Promise<Store> {
    const current = await this.uow.repos.stores.find(storeId);
    if (current === undefined) throw new AppError('not_found', `Store ${storeId} not found`);
    const store = await this.uow.repos.stores.setMoney(storeId, checkedMoney({ currency: money.currency, rounding: money.rounding ?? current.rounding }));
    if (store === undefined) throw new AppError('not_found', `Store ${storeId} not found`);
    return store;
  }

  /** A store as `GET /v1/store` answers it: with whether it requires approval of price changes. */
  async shownStore(storeId: number): Promise<Store & { requireApproval: boolean }> {
    return { ...(await this.store(storeId)), requireApproval: await this.requiresApproval(storeId) };
  }

  /**
   * Whether the store requires approval of price changes (docs/change-sets.md, "Approval"): its
   * change sets are approved by someone who did not write them, and direct writes of prices need
   * `trade_prices:direct`. Read on every such write, so `stores set-approval` holds from the next.
   */
  async requiresApproval(storeId: number): Promise<boolean> {
    return (await this.uow.repos.stores.requiresApproval(storeId)) === true;
  }

  /** Turns the store's approval of price changes on or off (docs/change-sets.md, "Approval"). */
  async setRequireApproval(storeId: number, value: boolean): Promise<void> {
    if (!(await this.uow.repos.stores.setRequireApproval(storeId, value))) throw new AppError('not_found', `Store ${storeId} not found`);
  }

  /** Stores by ascending id, `limit` at most, after `afterId`. */
  stores(afterId: number, limit: number): Promise<Store[]> {
    return this.uow.repos.stores.page(afterId, limit);
  }

  /** A store's credentials (revoked ones too), `limit` at most, after `afterId`; never a secret. */
  async keysOfStore(storeId: number, afterId: number, limit: number): Promise<ListedApiKey[]> {
    if ((await this.uow.repos.stores.find(storeId)) === undefined) throw new AppError('not_found', `Store ${storeId} not found`);
    return this.uow.repos.apiKeys.pageOfStore(storeId, afterId, limit);
  }

  /**
   * The one credential not revoked that carries `name` (in `storeId`, or in any store); none,
   * or two or more, is an error (the latter listing them, so one can be revoked by its id).
   */
  async keyNamed(name: string, storeId?: number): Promise<ListedApiKey> {
    const matches = await this.uow.repos.apiKeys.activeNamed(name, storeId, NAME_MATCHES_SHOWN + 1);
    const where = storeId === undefined ? '' : ` in store ${storeId}`;
    if (matches.length === 0) throw new AppError('not_found', `No credential named '${name}'${where} (revoked ones are not looked at)`);
    if (matches.length > 1) {
      const listed = matches.slice(0, NAME_MATCHES_SHOWN).map((key) => `${key.id} (store ${key.storeId}, ${key.key}, created ${key.createdAt})`);
      const more = matches.length > NAME_MATCHES_SHOWN ? ', and more' : '';
      throw new AppError(
        'validation_failed',
        `${matches.length > NAME_MATCHES_SHOWN ? 'More than ' + NAME_MATCHES_SHOWN : matches.length} credentials are named '${name}'${where}: ${listed.join('; ')}${more}; revoke one by its id, or narrow with --store`,
      );
    }
    return matches[0]!;
  }

  async issueKey(storeId: number, scopes: readonly Scope[] = DEFAULT_SCOPES, name?: string): Promise<IssuedCredential> {
    if (scopes.length === 0) throw new AppError('validation_failed', 'A credential needs at least one scope');
    const badName = name === undefined ? undefined : keyNameProblem(name);
    if (badName !== undefined) throw new AppError('validation_failed', badName);
    return this.uow.transaction(async (repos) => {
      if ((await repos.stores.find(storeId)) === undefined) throw new AppError('not_found', `Store ${storeId} not found`);
      const key = KEY_PREFIX + randomBytes(18).toString('base64url');
      const secret = SECRET_PREFIX + randomBytes(32).toString('base64url');
      const stored = await repos.apiKeys.insert({
        storeId,
        key,
        secretHash: sha256(secret),
        scopes: [...new Set(scopes)],
        createdAt: isoTimestamp(this.clock),
        ...(name !== undefined && { name }),
      });
      return { id: stored.id, storeId, ...(name !== undefined && { name }), scopes: stored.scopes, key, secret, token: `${key}.${secret}` };
    });
  }

  /**
   * Revokes the credential, then waits out the credential cache's trust period (about a
   * second) before returning: from then on no process, this one or another, instance or CLI,
   * authenticates a request with it.
   */
  async revokeKey(id: number): Promise<void> {
    if (!(await this.uow.repos.apiKeys.revoke(id, isoTimestamp(this.clock)))) {
      throw new AppError('not_found', `Credential ${id} not found`);
    }
    this.cache.clear();
    await new Promise((resolve) => setTimeout(resolve, CREDENTIAL_TRUSTED_MS + REVOCATION_MARGIN_MS));
  }

  /**
   * The principal for a key and secret, or undefined: unknown, revoked or wrong secret alike. At
   * once when the credential cache holds a trusted reading of the key; through a promise when
   * it reads the database.
   */
  authenticate(key: string, secret: string): Answer<Principal | undefined> {
    // Only keys of the issued form are looked up: a NUL or other odd character never reaches SQL.
    return thenAnswer(KEY_FORMAT.test(key) ? this.cache.find(key) : undefined, (stored) => principalOf(stored, secret));
  }
}

/** The principal of a stored credential whose secret is the one presented (compared in constant time); undefined otherwise. */
function principalOf(stored: StoredApiKey | undefined, secret: string): Principal | undefined {
  const expected = Buffer.from(stored?.secretHash ?? DUMMY_HASH, 'hex');
  const presented = Buffer.from(sha256(secret), 'hex');
  const matches = timingSafeEqual(expected, presented);
  if (stored === undefined || !matches || stored.revokedAt !== null) return undefined;
  return {
    storeId: stored.storeId,
    scopes: new Set(stored.scopes),
    actor: { type: 'key', id: stored.id, name: stored.name ?? stored.key },
    rateLimitBucket: `key:${stored.id}`,
    idempotencyOwnerId: stored.id,
  };
}

/** Splits a Bearer token into key and secret; undefined when it is not of our form. */
export function parseToken(token: string): { key: string; secret: string } | undefined {
  const dot = token.indexOf('.');
  if (dot <= 0 || dot === token.length - 1) return undefined;
  return { key: token.slice(0, dot), secret: token.slice(dot + 1) };
}

function sha256(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/** A new store's currency and rounding when none are given. */
export const DEFAULT_STORE_MONEY: StoreMoney = { currency: 'GBP', rounding: 'half-up' };

/** The currency upper-cased, checked against ISO 4217 as the runtime knows it; the rounding one of the modes. */
function checkedMoney(money: StoreMoney): StoreMoney {
  const currency = money.currency.trim().toUpperCase();
  if (!isCurrency(currency)) throw new AppError('validation_failed', `'${money.currency}' is not an ISO 4217 currency code (such as GBP, EUR, USD, JPY)`);
  if (!isRoundingMode(money.rounding))
    throw new AppError('validation_failed', `A rounding must be one of ${ROUNDING_MODES.join(', ')}, not '${String(money.rounding)}'`);
  return { currency, rounding: money.rounding };
}
