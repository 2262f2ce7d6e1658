import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { type Clock, isoTimestamp } from '../clock.js';
import { AppError } from '../errors.js';
import type { UnitOfWork } from '../unit-of-work.js';
import { CREDENTIAL_TRUSTED_MS, CredentialCache, REVOCATION_MARGIN_MS } from './credential-cache.js';
import { SCOPES, type Scope } from './scopes.js';
import type { ApiKey, Store } from './store-repository.js';

/** A new credential, the only time its secret and token are known. */
export interface IssuedCredential extends Omit<ApiKey, 'revokedAt' | 'createdAt'> {
  /** Basic password. */
  secret: string;
  /** Bearer token: `<key>.<secret>`. */
  token: string;
}

/** The caller behind an authenticated request. */
export interface Principal {
  keyId: number;
  storeId: number;
  scopes: ReadonlySet<Scope>;
}

const KEY_PREFIX = 'pk_';
/** `pk_` and base64url, at most 64 characters in all (issued keys have 24 after the prefix). */
const KEY_FORMAT = /^pk_[A-Za-z0-9_-]{1,61}$/;
const SECRET_PREFIX = 'sk_';
/** Compared against when the key is unknown, so both paths cost the same. */
const DUMMY_HASH = sha256(randomBytes(32).toString('hex'));

export class CredentialService {
  private readonly cache: CredentialCache;

  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {
    this.cache = new CredentialCache((key) => this.uow.repos.apiKeys.findByKey(key));
  }

  createStore(name: string): Promise<Store> {
    const trimmed = name.trim();
    if (trimmed === '' || trimmed.length > 255) {
      throw new AppError('validation_failed', 'A store name must have 1 to 255 characters');
    }
    return this.uow.repos.stores.insert(trimmed, isoTimestamp(this.clock));
  }

  async issueKey(storeId: number, scopes: readonly Scope[] = SCOPES): Promise<IssuedCredential> {
    if (scopes.length === 0) throw new AppError('validation_failed', 'A credential needs at least one scope');
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
      });
      return { id: stored.id, storeId, scopes: stored.scopes, key, secret, token: `${key}.${secret}` };
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

  /** The principal for a key and secret, or undefined: unknown, revoked or wrong secret alike. */
  async authenticate(key: string, secret: string): Promise<Principal | undefined> {
    // Only keys of the issued form are looked up: a NUL or other odd character never reaches SQL.
    const stored = KEY_FORMAT.test(key) ? await this.cache.find(key) : undefined;
    const expected = Buffer.from(stored?.secretHash ?? DUMMY_HASH, 'hex');
    const presented = Buffer.from(sha256(secret), 'hex');
    const matches = timingSafeEqual(expected, presented);
    if (stored === undefined || !matches || stored.revokedAt !== null) return undefined;
    return { keyId: stored.id, storeId: stored.storeId, scopes: new Set(stored.scopes) };
  }
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
