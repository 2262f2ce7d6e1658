import { randomBytes } from 'node:crypto';

/** Standard Webhooks' prefix: the rest of the secret is the base64 HMAC key. */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';

/** Bytes of HMAC key behind each secret (Standard Webhooks asks for 24 to 64). */
const KEY_BYTES = 24;

export function newWebhookSecret(): string {
  return WEBHOOK_SECRET_PREFIX + randomBytes(KEY_BYTES).toString('base64');
}

/** The HMAC key of a `whsec_…` secret. */
export function webhookSigningKey(secret: string): Buffer {
  if (!secret.startsWith(WEBHOOK_SECRET_PREFIX)) throw new Error('not a whsec_ secret');
  return Buffer.from(secret.slice(WEBHOOK_SECRET_PREFIX.length), 'base64');
}
