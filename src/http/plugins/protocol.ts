import { BlockList, isIPv4 } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../modules/shared/errors.js';
import { sendError } from './error-handler.js';

/** The addresses of trusted TLS-terminating proxies, from `PRICEBOOK_TRUST_PROXY`. */
export function trustedProxies(entries: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const [address = '', bits] = entry.split('/');
    const family = isIPv4(address) ? 'ipv4' : 'ipv6';
    if (bits === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(bits), family);
  }
  return list;
}

export function isTrusted(proxies: BlockList, address: string | undefined): boolean {
  if (address === undefined) return false;
  const plain = address.startsWith('::ffff:') ? address.slice(7) : address;
  return proxies.check(plain, isIPv4(plain) ? 'ipv4' : 'ipv6');
}

export const INVALID_PROTOCOL_MESSAGE = 'Invalid protocol: this API is served over HTTPS only; HTTPS is required';

/**
 * First check of every request: it came over TLS, or from a trusted proxy that says the
 * client used https. Anything else gets code 2, whatever its path.
 */
export function registerProtocolCheck(app: FastifyInstance, proxies: BlockList): void {
  app.addHook('onRequest', (request, reply, done) => {
    const socket = request.raw.socket as Partial<TLSSocket>;
    if (socket.encrypted === true) return done();
    const forwarded = request.headers['x-forwarded-proto'];
    if (forwarded === 'https' && isTrusted(proxies, socket.remoteAddress)) return done();
    sendError(reply, new AppError('invalid_protocol', INVALID_PROTOCOL_MESSAGE));
  });
}
