import ipaddr from 'ipaddr.js';

/** Cloud metadata services; their ranges are refused anyway, named here so no change of rules lets them in. */
const METADATA_ADDRESSES = new Set(['169.254.169.254', 'fd00:ec2::254']);

/** IPv6 ranges whose addresses embed an IPv4 address. */
const EMBEDDED_IPV4: ReadonlyArray<[ipaddr.IPv6, number]> = [
  ['::', 96], // IPv4-compatible (deprecated), `::` and `::1` included
  ['::ffff:0:0', 96], // IPv4-mapped
  ['::ffff:0:0:0', 96], // SIIT (RFC 6145)
  ['64:ff9b::', 96], // NAT64 well-known prefix (RFC 6052)
  ['64:ff9b:1::', 48], // NAT64 local-use (RFC 8215)
  ['2002::', 16], // 6to4
  ['2001::', 32], // Teredo
].map(([prefix, bits]) => [ipaddr.IPv6.parse(prefix as string), bits as number]);

/**
 * Whether events may be sent to this IP address: only plain public unicast. Loopback,
 * private, link-local, CGNAT, unique-local, multicast, reserved, documentation and
 * translation ranges are refused, and so is every IPv6 form that carries an IPv4 address
 * (IPv4-compatible `::a.b.c.d`, IPv4-mapped `::ffff:a.b.c.d`, NAT64, 6to4, Teredo, SIIT):
 * whatever it carries, a receiver has no need of them, and each is a way to reach an IPv4
 * address that a check of the IPv6 form alone would let through.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const raw = ipaddr.parse(address);
  if (raw.kind() === 'ipv6' && EMBEDDED_IPV4.some(([range, bits]) => (raw as ipaddr.IPv6).match(range, bits))) return false;
  const parsed = ipaddr.process(address);
  if (METADATA_ADDRESSES.has(parsed.toNormalizedString()) || METADATA_ADDRESSES.has(parsed.toString())) return false;
  return parsed.range() === 'unicast';
}
