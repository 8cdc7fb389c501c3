/**
 * Which resolved addresses the service may connect to on a user's behalf: public unicast only. Everything a
 * URL could use to reach the service's own network — loopback, private and carrier-grade NAT ranges,
 * link-local (where cloud metadata lives), unspecified, multicast, broadcast, reserved and documentation
 * ranges, and the IPv6 forms of all of these (unique-local, link-local, IPv4 addresses embedded in IPv6
 * through mapping, NAT64, 6to4 or Teredo) — is refused.
 */
import ipaddr from 'ipaddr.js';

/** IPv6 global unicast is 2000::/3; anything else public-looking is unassigned. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');
/** The deprecated IPv4-compatible form `::a.b.c.d` (ipaddr.js files it under plain unicast). */
const IPV4_COMPATIBLE_V6 = ipaddr.parseCIDR('::/96');

export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return parsed.range() === 'unicast';
  const v6 = parsed as ipaddr.IPv6;
  // `::ffff:a.b.c.d` reaches the IPv4 address itself: judge that address.
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().range() === 'unicast';
  if (v6.match(IPV4_COMPATIBLE_V6)) return false;
  // NAT64, 6to4 and Teredo carry an IPv4 address the network may route to; ipaddr.js names those ranges,
  // so only what it calls plain unicast inside 2000::/3 passes.
  return v6.range() === 'unicast' && v6.match(GLOBAL_UNICAST_V6);
}

/** An IP literal as URL hosts spell it (`[::1]` for IPv6), or undefined for a name that needs DNS. */
export function ipLiteral(hostname: string): string | undefined {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return ipaddr.isValid(bare) && (bare.includes(':') || ipaddr.IPv4.isValidFourPartDecimal(bare)) ? bare : undefined;
}
