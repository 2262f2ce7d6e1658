import { type Clock, isoTimestamp } from '../shared/clock.js';
import { AppError, UniqueViolation } from '../shared/errors.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import type { CreatedRecord, KeyOwner } from './idempotency-repository.js';

/** Keys are remembered this long. */
export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;

export interface RenderedResponse {
  statusCode: number;
  body: string;
  /** The one record the request created, if it made one: the stored answer is dropped with it. */
  created?: CreatedRecord;
}

export type IdempotentOutcome = { statusCode: number; body: string; replayed: boolean };

/**
 * `Idempotency-Key` for creates, per credential: another credential of the store with the same
 * key makes a request of its own. The key is claimed first in the transaction of the create it
 * guards and completed with the response before that transaction commits, so the records and
 * their key are committed together or not at all. A repeat with the same fingerprint replays
 * the first response; another fingerprint is refused; a repeat while the first is still
 * running is refused with "in use" (in this process) or waits for it and replays (another
 * instance, which blocks on the key's unique index).
 */
export class IdempotencyService {
  private readonly inFlight = new Set<string>();

  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  /** `prepare`, if given, runs once the key is known to be new, before the transaction opens. */
  async run(
    owner: KeyOwner,
    key: string,
    fingerprint: string,
    create: () => Promise<RenderedResponse>,
    prepare?: () => Promise<void>,
  ): Promise<IdempotentOutcome> {
    const previous = await this.replay(owner, key, fingerprint);
    if (previous !== undefined) return previous;

    const slot = `${owner.storeId}\u0000${owner.keyId}\u0000${key}`;
    if (this.inFlight.has(slot)) throw keyInUse();
    this.inFlight.add(slot);
    try {
      await prepare?.();
      return await this.uow.transaction(async (repos) => {
        const now = this.clock.now();
        await repos.idempotency.claim(owner, key, fingerprint, isoTimestamp(this.clock), now + IDEMPOTENCY_TTL_MS, now);
        const response = await create();
        await repos.idempotency.complete(owner, key, response.statusCode, response.body, response.created);
        return { statusCode: response.statusCode, body: response.body, replayed: false };
      });
    } catch (error) {
      if (!(error instanceof UniqueViolation && error.target === 'idempotency_key')) throw error;
      // Another instance completed the key while we waited on it.
      const completed = await this.replay(owner, key, fingerprint);
      if (completed === undefined) throw keyInUse();
      return completed;
    } finally {
      this.inFlight.delete(slot);
    }
  }

  /** Whether `key` has a stored answer for `owner` (a request with it will be replayed, or refused if its body differs). */
  async hasAnswer(owner: KeyOwner, key: string): Promise<boolean> {
    return (await this.uow.repos.idempotency.find(owner, key, this.clock.now())) !== undefined;
  }

  /** Removes up to about `limit` keys past their 24 hours (the maintenance loop calls it until none are left); returns how many. */
  purgeExpired(limit: number): Promise<number> {
    return this.uow.repos.idempotency.deleteExpired(this.clock.now(), limit);
  }

  private async replay(owner: KeyOwner, key: string, fingerprint: string): Promise<IdempotentOutcome | undefined> {
    const stored = await this.uow.repos.idempotency.find(owner, key, this.clock.now());
    if (stored === undefined) return undefined;
    if (stored.fingerprint !== fingerprint) {
      const message = 'This Idempotency-Key was used with a different request body; use a new key for a new request';
      throw new AppError('idempotency_key_reused', message, [{ field: null, message }]);
    }
    return { statusCode: stored.statusCode, body: stored.body, replayed: true };
  }
}

function keyInUse(): AppError {
  return new AppError('idempotency_key_in_use', 'A request with this Idempotency-Key is still being processed; retry shortly');
}
