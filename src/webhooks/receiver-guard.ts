import { isIP } from 'node:net';
import type { ReceiverPolicy } from '../modules/webhooks/receivers.js';
import { isPublicAddress } from './address-policy.js';
import type { HostResolver, ResolvedAddress } from './host-resolver.js';

/** Where one request goes: the URL and the checked address its connection is pinned to. */
export interface ReceiverTarget {
  url: URL;
  address: ResolvedAddress;
}

export type GuardVerdict = { allowed: true; target: ReceiverTarget } | { allowed: false; reason: string };

export interface ReceiverGuardOptions {
  /** `PRICEBOOK_WEBHOOK_ALLOW_PRIVATE`: http:// and any address allowed (development, tests). */
  allowPrivate: boolean;
  /** Longest wait for name resolution, milliseconds. */
  resolveTimeoutMs?: number;
}

/**
 * One answer for a name that does not resolve and one that resolves to a refused address, so
 * webhook URLs cannot be used to probe which names exist on the server's internal network.
 */
const ADDRESS_REFUSAL =
  'must have a host that resolves to public addresses only (not loopback, private, link-local, shared (CGNAT), unique-local, multicast, cloud-metadata or IPv4-embedding IPv6)';

/** How a developer reaches a receiver on their own machine; named in the refusals the switch lifts. */
const ALLOW_PRIVATE_HINT =
  'a receiver on this machine or a private network (development and tests only) needs the server started with PRICEBOOK_WEBHOOK_ALLOW_PRIVATE=1';

/**
 * The SSRF rule, checked when a webhook is created and again before every request: the URL
 * must be https:// and every address its host resolves to must be public. The verdict names
 * the address checked, and the request connects to that address and no other, so a DNS answer
 * that changes in between (rebinding) cannot redirect it.
 */
export class ReceiverGuard implements ReceiverPolicy {
  private readonly allowPrivate: boolean;
  private readonly resolveTimeoutMs: number;

  constructor(
    private readonly resolver: HostResolver,
    { allowPrivate, resolveTimeoutMs = 5_000 }: ReceiverGuardOptions,
  ) {
    this.allowPrivate = allowPrivate;
    this.resolveTimeoutMs = resolveTimeoutMs;
  }

  async refusal(url: string): Promise<string | undefined> {
    const verdict = await this.check(url);
    return verdict.allowed ? undefined : verdict.reason;
  }

  async check(rawUrl: string): Promise<GuardVerdict> {
    let url: URL;
    try {
      url = new URL(rawUrl);
    } catch {
      return refuse('must be an absolute URL');
    }
    if (url.protocol !== 'https:' && !(this.allowPrivate && url.protocol === 'http:')) {
      return refuse(
        this.allowPrivate
          ? 'must start with https:// or http://'
          : `must start with https://; http:// is allowed only with PRICEBOOK_WEBHOOK_ALLOW_PRIVATE=1 (development and tests only)`,
      );
    }
    if (url.username !== '' || url.password !== '') return refuse('must not contain a user name or password');
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    let addresses: ResolvedAddress[];
    const family = isIP(host);
    if (family !== 0) {
      addresses = [{ address: host, family: family === 6 ? 6 : 4 }];
    } else {
      try {
        addresses = await withTimeout(this.resolver.resolve(host), this.resolveTimeoutMs);
      } catch {
        return refuse(this.addressRefusal());
      }
    }
    const [first] = addresses;
    if (first === undefined) return refuse(this.addressRefusal());
    if (!this.allowPrivate && addresses.some((address) => !isPublicAddress(address.address))) return refuse(this.addressRefusal());
    return { allowed: true, target: { url, address: first } };
  }

  /** The same words whether the name resolved or not; the hint only where the switch would help. */
  private addressRefusal(): string {
    return this.allowPrivate ? ADDRESS_REFUSAL : `${ADDRESS_REFUSAL}; ${ALLOW_PRIVATE_HINT}`;
  }
}

function refuse(reason: string): GuardVerdict {
  return { allowed: false, reason };
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
