import { AppError } from '../shared/errors.js';
import type { DeviceCookies, DeviceSubject } from './device-cookies.js';
import { verifyPassword } from './password-hash.js';
import type { AttemptOwner, SignInAttempts } from './sign-in-attempts.js';

/** What a request brings to an attempt at a password, besides the password. */
export interface AttemptContext {
  /** The client's address (its bucket is the one failed API credentials fill too). */
  address: string;
  /** The device cookie the browser sent, if any (docs/staff.md, "Throttling"). */
  deviceCookie: string | undefined;
}

/**
 * Every check of a staff password (sign-in, and the current password of a password change)
 * goes through here: a place is reserved in the buckets before scrypt runs and given back only
 * when the attempt succeeded, so failures stay counted and concurrency cannot add checks. At
 * most `concurrency` checks run at once; the others wait their turn, in order, so a burst of
 * sign-ins never takes every processor (nor libuv's whole thread pool) from other stores' requests.
 */
export class GuardedPasswordCheck {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly attempts: SignInAttempts,
    readonly devices: DeviceCookies,
    private readonly concurrency = 1,
  ) {}

  /**
   * Whether the attempt succeeds: `password` matches `hash` and `usable` (the account exists
   * and is not disabled). A bucket that is full refuses it before the password is checked:
   * `rate_limited` with the wait, and `refusal` as the message.
   */
  async attempt(subject: DeviceSubject, password: string, hash: string, usable: boolean, context: AttemptContext, refusal: string): Promise<boolean> {
    const deviceId = await this.devices.deviceIdOf(context.deviceCookie, subject);
    const owner: AttemptOwner = deviceId === undefined ? { kind: 'account', ...subject } : { kind: 'device', deviceId };
    const reservation = await this.attempts.reserve(owner, context.address);
    if (!reservation.granted) throw new AppError('rate_limited', refusal, undefined, reservation.retryAfterSeconds);
    const succeeded = (await this.inTurn(() => verifyPassword(password, hash))) && usable;
    if (succeeded) await reservation.giveBack();
    return succeeded;
  }

  private async inTurn<T>(work: () => Promise<T>): Promise<T> {
    if (this.running < this.concurrency) this.running++;
    // A finished check hands its turn to the next waiting one (`running` stays as it is).
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next === undefined) this.running--;
      else next();
    }
  }
}
