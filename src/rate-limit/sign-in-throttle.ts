import { createHash } from 'node:crypto';
import type { AttemptOwner, AttemptReservation, SignInAttempts } from '../modules/staff/sign-in-attempts.js';
import type { RateLimiter } from './rate-limiter.js';

/**
 * Staff sign-in attempts, counted twice (docs/staff.md, "Throttling"): per account (the e-mail's
 * key, whether an account has it or not, with the account's sign-in generation) or per device
 * cookie, both in the sign-in limiter; and per client address, in the bucket failed API
 * credentials fill too. A place is taken in both before a password is checked.
 */
export class SignInThrottle implements SignInAttempts {
  constructor(
    private readonly perOwner: RateLimiter,
    private readonly perAddress: RateLimiter,
  ) {}

  async reserve(owner: AttemptOwner, address: string): Promise<AttemptReservation> {
    const ownerKey = ownerBucketKey(owner);
    const clientKey = addressBucketKey(address);
    const [mine, client] = await Promise.all([this.perOwner.take(ownerKey), this.perAddress.take(clientKey)]);
    if (mine.allowed && client.allowed) {
      return { granted: true, giveBack: async () => void (await Promise.all([this.perOwner.giveBack(ownerKey), this.perAddress.giveBack(clientKey)])) };
    }
    // One refused: the place the other granted goes back, so a refusal counts nowhere.
    if (mine.allowed) await this.perOwner.giveBack(ownerKey);
    if (client.allowed) await this.perAddress.giveBack(clientKey);
    return { granted: false, retryAfterSeconds: Math.max(mine.allowed ? 0 : mine.retryAfterSeconds, client.allowed ? 0 : client.retryAfterSeconds, 1) };
  }
}

/** E-mails go into the bucket's key (and Redis) only as a hash; a device cookie by its id. */
function ownerBucketKey(owner: AttemptOwner): string {
  if (owner.kind === 'device') return `signin-device:${owner.deviceId}`;
  return `signin:${createHash('sha256').update(owner.emailKey, 'utf8').digest('hex').slice(0, 32)}:${owner.generation}`;
}

/** One budget per address for failed sign-ins and failed API credentials (http/plugins/authenticate.ts). */
export function addressBucketKey(address: string): string {
  return `authfail:${address}`;
}
