import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Passwords are stored as scrypt hashes (RFC 7914) in a self-describing string,
 * `scrypt$ln=15,r=8,p=1$<salt>$<key>` (salt and key in base64): a hash keeps the parameters it
 * was made with, so they can be raised later and old hashes still verify.
 *
 * - N = 2^15, r = 8, p = 1: 32 MiB of memory and some 50–100 ms of one core per hash (the
 *   parameters OWASP recommends for scrypt);
 * - a 32-byte random salt per password, a 64-byte key.
 *
 * `crypto.scrypt` runs in libuv's thread pool, never on the event loop.
 */
/** log2 of N for new hashes, unless `PRICEBOOK_PASSWORD_COST` says otherwise (a test suite's 10, a faster machine's 16). */
export const DEFAULT_PASSWORD_COST = 15;
const BLOCK_SIZE = 8;
const PARALLELISM = 1;
const SALT_BYTES = 32;
const KEY_BYTES = 64;
const FORMAT = /^scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/]+={0,2})\$([A-Za-z0-9+/]+={0,2})$/;

/** A password has at least this many characters (code points, after NFC normalisation). */
export const MIN_PASSWORD_LENGTH = 12;
/** …and at most this many: scrypt's cost does not grow with it, but a body has to stop somewhere. */
export const MAX_PASSWORD_LENGTH = 200;

export async function hashPassword(password: string, cost = DEFAULT_PASSWORD_COST): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, KEY_BYTES, { N: 2 ** cost, r: BLOCK_SIZE, p: PARALLELISM });
  return `scrypt$ln=${cost},r=${BLOCK_SIZE},p=${PARALLELISM}$${salt.toString('base64')}$${key.toString('base64')}`;
}

/** Whether `password` is the one `stored` was made from; constant-time over the keys. A malformed `stored` is false. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const match = FORMAT.exec(stored);
  if (match === null) return false;
  const [, logN, r, p, salt, key] = match;
  const expected = Buffer.from(key!, 'base64');
  const presented = await derive(password, Buffer.from(salt!, 'base64'), expected.length, { N: 2 ** Number(logN), r: Number(r), p: Number(p) });
  return expected.length > 0 && timingSafeEqual(expected, presented);
}

/**
 * A password as it is hashed and measured: NFC, so `é` typed as one code point or as `e` and a
 * combining accent is the same password, of the same length.
 */
export function normalizedPassword(password: string): string {
  return password.normalize('NFC');
}

/** Why `password` cannot be a password, or undefined when it can. Its length is counted after NFC. */
export function passwordProblem(password: string): string | undefined {
  const length = [...normalizedPassword(password)].length;
  if (length < MIN_PASSWORD_LENGTH) return `A password must have at least ${MIN_PASSWORD_LENGTH} characters`;
  if (length > MAX_PASSWORD_LENGTH) return `A password must have at most ${MAX_PASSWORD_LENGTH} characters`;
  return undefined;
}

/** A one-time password for a new or reset account: 20 characters of base64url, 120 random bits. */
export function generateInitialPassword(): string {
  return randomBytes(15).toString('base64url');
}

function derive(password: string, salt: Buffer, length: number, options: ScryptOptions): Promise<Buffer> {
  // 128 · N · r bytes of memory (32 MiB at the defaults); Node refuses above `maxmem` (32 MiB by default).
  const maxmem = 2 * 128 * (options.N ?? 0) * (options.r ?? 0);
  return new Promise((resolve, reject) => {
    scrypt(normalizedPassword(password), salt, length, { ...options, maxmem }, (error, key) => (error ? reject(error) : resolve(key)));
  });
}
