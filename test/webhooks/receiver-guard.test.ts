import { describe, expect, it } from 'vitest';
import { isPublicAddress } from '../../src/webhooks/address-policy.js';
import type { HostResolver, ResolvedAddress } from '../../src/webhooks/host-resolver.js';
import { ReceiverGuard } from '../../src/webhooks/receiver-guard.js';

/** Answers from a table; never touches DNS. */
function stubResolver(table: Record<string, string[]>): HostResolver & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    resolve(hostname) {
      asked.push(hostname);
      const addresses = table[hostname];
      if (addresses === undefined) return Promise.reject(new Error('ENOTFOUND'));
      return Promise.resolve(addresses.map((address): ResolvedAddress => ({ address, family: address.includes(':') ? 6 : 4 })));
    },
  };
}

describe('isPublicAddress', () => {
  it.each([
    '127.0.0.1',
    '127.255.0.9',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '169.254.1.1',
    '100.64.0.1',
    '100.127.255.254',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fc00::1',
    'fd00:ec2::254',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254',
    '64:ff9b::a00:1',
    '2002:a00:1::1',
    // Every IPv6 form that carries an IPv4 address, whatever it carries.
    '::7f00:1',
    '::127.0.0.1',
    '::808:808',
    '::ffff:8.8.8.8',
    '::ffff:0:808:808',
    '64:ff9b::808:808',
    '64:ff9b:1::808:808',
    '2002:808:808::1',
    '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    'not-an-address',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['93.184.216.34', '8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '172.32.0.1', '100.128.0.1'])('allows %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});

describe('ReceiverGuard', () => {
  const guard = (table: Record<string, string[]>, allowPrivate = false) => {
    const resolver = stubResolver(table);
    return { resolver, guard: new ReceiverGuard(resolver, { allowPrivate }) };
  };

  it('allows https to a host whose every address is public, and pins the first', async () => {
    const { guard: g } = guard({ 'hooks.example.com': ['93.184.216.34', '2606:4700:4700::1111'] });
    const verdict = await g.check('https://hooks.example.com/in?x=1');
    expect(verdict).toMatchObject({ allowed: true, target: { address: { address: '93.184.216.34', family: 4 } } });
  });

  it('refuses a host with one private address among public ones', async () => {
    const { guard: g } = guard({ 'mixed.example.com': ['93.184.216.34', '10.0.0.7'] });
    expect(await g.refusal('https://mixed.example.com/')).toMatch(/resolves to public addresses only/);
  });

  it.each([
    ['http://hooks.example.com/', /must start with https:\/\//],
    ['ftp://hooks.example.com/', /must start with https:\/\//],
    ['not a url', /absolute URL/],
    ['https://user:pw@hooks.example.com/', /user name or password/],
    ['https://unknown.example.com/', /resolves to public addresses only/],
    ['https://127.0.0.1/', /resolves to public addresses only/],
    ['https://[::1]:8443/', /resolves to public addresses only/],
    ['https://169.254.169.254/latest/meta-data', /resolves to public addresses only/],
    ['https://[fd00:ec2::254]/', /resolves to public addresses only/],
    ['https://metadata.example.com/', /resolves to public addresses only/],
    // IPv6 forms that carry an IPv4 address, private or not.
    ...[
      '[::127.0.0.1]',
      '[::7f00:1]',
      '[::8.8.8.8]',
      '[::ffff:127.0.0.1]',
      '[::ffff:8.8.8.8]',
      '[::ffff:0:7f00:1]',
      '[64:ff9b::7f00:1]',
      '[64:ff9b:1::a00:1]',
      '[2002:7f00:1::1]',
      '[2001:0:4136:e378:8000:63bf:3fff:fdd2]',
      'embedded.example.com',
    ].map((host): [string, RegExp] => [`https://${host}/`, /resolves to public addresses only/]),
  ])('refuses %s', async (url, reason) => {
    const { guard: g } = guard({ 'hooks.example.com': ['93.184.216.34'], 'metadata.example.com': ['169.254.169.254'], 'embedded.example.com': ['::7f00:1'] });
    expect(await g.refusal(url)).toMatch(reason);
  });

  it('lets http:// and private addresses through when private receivers are allowed', async () => {
    const { guard: g } = guard({ 'receiver.test': ['127.0.0.1'] }, true);
    expect(await g.refusal('http://receiver.test:9999/hook')).toBeUndefined();
    expect(await g.refusal('http://10.0.0.1/hook')).toBeUndefined();
  });

  it('answers a name that does not resolve exactly as one that resolves to a private address', async () => {
    const { guard: g } = guard({ 'intranet.example.com': ['10.1.2.3'] });
    const [missing, internal] = [await g.refusal('https://nowhere.example.com/'), await g.refusal('https://intranet.example.com/')];
    expect(missing).toBeDefined();
    expect(missing).toBe(internal);
  });

  it('does not ask the resolver for an address literal', async () => {
    const { guard: g, resolver } = guard({});
    await g.check('https://10.0.0.1/');
    expect(resolver.asked).toEqual([]);
  });
});
