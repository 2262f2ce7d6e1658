import ipaddr from 'ipaddr.js';

/** Cloud metadata services; their ranges are refused anyway, named here so no change of rules lets them in. */
const METADATA_ADDRESSES = new Set(['169.254.169.254', 'fd00:ec2::254']);

/**
 * Whether events may be sent to this IP address: only plain public unicast. Loopback,
 * private, link-local, CGNAT, unique-local, multicast, reserved, documentation and
 * translation ranges (which can embed a private IPv4 address) are refused; an IPv4-mapped
 * IPv6 address is judged as the IPv4 address it carries.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  if (METADATA_ADDRESSES.has(parsed.toNormalizedString()) || METADATA_ADDRESSES.has(parsed.toString())) return false;
  return parsed.range() === 'unicast';
}
