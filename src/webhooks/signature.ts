import { createHmac } from 'node:crypto';
import { webhookSigningKey } from '../modules/webhooks/webhook-secret.js';

/**
 * The Standard Webhooks headers of one request: `webhook-signature` is `v1,` + base64
 * HMAC-SHA256 of `${id}.${timestamp}.${body}`, keyed with the secret's base64-decoded part
 * after `whsec_`. `timestampSeconds` is Unix time in whole seconds.
 */
export function signatureHeaders(secret: string, messageId: string, timestampSeconds: number, body: string): Record<string, string> {
  const signature = createHmac('sha256', webhookSigningKey(secret)).update(`${messageId}.${timestampSeconds}.${body}`).digest('base64');
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': `v1,${signature}`,
  };
}
