import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { type Clock, isoTimestamp } from '../shared/clock.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';

/** A device cookie lasts this long from the sign-in that issued it; each sign-in issues a new one. */
export const DEVICE_COOKIE_LIFETIME_SECONDS = 90 * 24 * 3600;

/** The account a device cookie is bound to: its e-mail key and its sign-in generation. */
export interface DeviceSubject {
  emailKey: string;
  generation: number;
}

/** `v1.<nonce>.<expiry, seconds since the epoch>.<HMAC-SHA256>`, nonce and MAC in base64url. */
const FORMAT = /^v1\.([A-Za-z0-9_-]{22})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

/**
 * OWASP's device cookies ("Slow Down Online Guessing Attacks with Device Cookies"): a browser
 * that signed in successfully gets a cookie signed with the server's key and bound to the
 * account, and a later sign-in that brings it has its attempts counted in the cookie's own
 * bucket, so others' failures cannot lock that browser out. Nothing is stored per cookie: its
 * nonce names its bucket, its MAC proves the server issued it for this account and generation
 * (`staff reset` and `staff disable` raise it, so they revoke every device cookie of the
 * account), its expiry ends it.
 *
 * The key is random, made once and kept in the database (`StaffRepository.deviceCookieKey`):
 * every instance shares the database, so every instance has the same key without a setting.
 */
export class DeviceCookies {
  private key: Promise<Buffer> | undefined;

  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  /** A new cookie's value for the account. */
  async issue(subject: DeviceSubject): Promise<{ value: string; maxAgeSeconds: number }> {
    const nonce = randomBytes(16).toString('base64url');
    const expires = String(Math.floor(this.clock.now() / 1000) + DEVICE_COOKIE_LIFETIME_SECONDS);
    const mac = await this.mac(subject, nonce, expires);
    return { value: `v1.${nonce}.${expires}.${mac}`, maxAgeSeconds: DEVICE_COOKIE_LIFETIME_SECONDS };
  }

  /**
   * The id of the cookie's bucket when `value` is a cookie this server issued for the account
   * and it has not expired; undefined for anything else (missing, malformed, forged, another
   * account's or generation's, expired).
   */
  async deviceIdOf(value: string | undefined, subject: DeviceSubject): Promise<string | undefined> {
    const match = value === undefined ? null : FORMAT.exec(value);
    if (match === null) return undefined;
    const [, nonce = '', expires = '0', presented = ''] = match;
    if (Number(expires) * 1000 <= this.clock.now()) return undefined;
    // Compared as text: one MAC has one spelling (base64url's last character carries spare bits).
    const expected = Buffer.from(await this.mac(subject, nonce, expires), 'utf8');
    const given = Buffer.from(presented, 'utf8');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    return createHash('sha256').update(nonce, 'utf8').digest('hex').slice(0, 32);
  }

  /** HMAC-SHA256 of the cookie's fields and the account's, base64url. */
  private async mac(subject: DeviceSubject, nonce: string, expires: string): Promise<string> {
    const key = await this.keyOnce();
    return createHmac('sha256', key)
      .update(`pricebook device cookie v1\n${subject.emailKey}\n${subject.generation}\n${nonce}\n${expires}`, 'utf8')
      .digest('base64url');
  }

  /** Read (or made) once per process; a failed read is tried again at the next sign-in. */
  private keyOnce(): Promise<Buffer> {
    this.key ??= this.uow.repos.staff.deviceCookieKey(randomBytes(32).toString('base64url'), isoTimestamp(this.clock)).then(
      (stored) => Buffer.from(stored, 'base64url'),
      (error: unknown) => {
        this.key = undefined;
        throw error;
      },
    );
    return this.key;
  }
}
