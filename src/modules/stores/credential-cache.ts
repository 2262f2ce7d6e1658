import type { Answer } from '../shared/answer.js';
import type { StoredApiKey } from './store-repository.js';

/**
 * How long a credential read from the database is trusted without reading it again, in
 * milliseconds. Revoking waits this long (and {@link REVOCATION_MARGIN_MS}) after its commit
 * before it returns, so once it has returned no process anywhere holds a reading of the
 * credential from before the revocation that it still trusts.
 */
export const CREDENTIAL_TRUSTED_MS = 1000;
/** Added to the wait after a revocation: timers fire late, never early, but clocks tick apart. */
export const REVOCATION_MARGIN_MS = 100;
/** Most credentials held; past it the least recently read is dropped (a reading, not a rule). */
const MAX_ENTRIES = 10_000;

interface Reading {
  /** When the database read began (monotonic ms): what it returns is at least this new. */
  readonly startedAt: number;
  readonly result: Promise<StoredApiKey | undefined>;
  /** Set once the read has found the credential revoked: final, so trusted for ever. */
  revoked: boolean;
  /** Set once the read has answered (a read that failed or found nothing is dropped instead). */
  answered: { stored: StoredApiKey | undefined } | undefined;
}

/**
 * The credentials recently read, by public key. Every process (server instance, CLI) has its
 * own; none is told about revocations elsewhere. What keeps "a revoked key stops working at
 * once" is the bound on trust: a reading is used only within {@link CREDENTIAL_TRUSTED_MS} of
 * when its database read began, or when it began after the request arrived (as the read of
 * an uncached credential always does), and a revocation returns only after that bound has
 * passed. A revocation is final, so a revoked reading is trusted for ever; unknown keys are
 * not kept (a key issued a moment later must work).
 */
export class CredentialCache {
  private readonly readings = new Map<string, Reading>();

  constructor(
    private readonly read: (key: string) => Promise<StoredApiKey | undefined>,
    private readonly now: () => number = () => performance.now(),
    private readonly trustedMs = CREDENTIAL_TRUSTED_MS,
  ) {}

  /**
   * The credential with that public key as the database holds it, read at most a trust period
   * ago: at once when a reading that has answered is still trusted (or revoked), else through
   * the promise of the read.
   */
  find(key: string): Answer<StoredApiKey | undefined> {
    const arrivedAt = this.now();
    let reading = this.readings.get(key);
    if (reading === undefined || (!reading.revoked && arrivedAt - reading.startedAt >= this.trustedMs)) reading = this.readAgain(key, arrivedAt);
    // Answered and, by the test above, revoked or read within the trust period of this arrival.
    else if (reading.answered !== undefined) return reading.answered.stored;
    return this.awaited(key, reading, arrivedAt);
  }

  private async awaited(key: string, reading: Reading, arrivedAt: number): Promise<StoredApiKey | undefined> {
    const stored = await reading.result;
    if (isRevoked(stored) || reading.startedAt >= arrivedAt || this.now() - reading.startedAt < this.trustedMs) return stored;
    // The read this request joined began before it arrived and took longer than the trust
    // period: its answer may predate a revocation that has since returned.
    return this.readAgain(key, this.now()).result;
  }

  /** Drops every reading (this process revoked a credential: no need to wait for its own). */
  clear(): void {
    this.readings.clear();
  }

  private readAgain(key: string, startedAt: number): Reading {
    const result = this.read(key);
    const reading: Reading = { startedAt, result, revoked: false, answered: undefined };
    this.readings.delete(key);
    this.readings.set(key, reading);
    if (this.readings.size > MAX_ENTRIES) this.readings.delete(this.readings.keys().next().value as string);
    result.then(
      (stored) => {
        reading.revoked = isRevoked(stored);
        reading.answered = { stored };
        if (stored === undefined && this.readings.get(key) === reading) this.readings.delete(key);
      },
      () => {
        if (this.readings.get(key) === reading) this.readings.delete(key);
      },
    );
    return reading;
  }
}

function isRevoked(stored: StoredApiKey | undefined): boolean {
  return stored !== undefined && stored.revokedAt !== null;
}
