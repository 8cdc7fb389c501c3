/**
 * Which resolved addresses the service may connect to on a user's behalf: public unicast only. Everything a
 * URL could use to reach the service's own network — loopback, private and carrier-grade NAT ranges,
 * link-local (where cloud metadata lives), unspecified, multicast, broadcast, reserved and documentation
 * ranges, and the IPv6 forms of all of these (unique-local, link-local, IPv4 addresses embedded in IPv6
 * through mapping, NAT64, 6to4 or Teredo) — is refused.
 *
 * Node's own `net.BlockList` does the matching, so the functions that fetch carry no address library.
 */
import { BlockList, isIP } from 'node:net';

type Subnet = readonly [network: string, prefix: number];

/** IPv4 ranges that are not public unicast (IANA special-purpose registry). */
const SPECIAL_V4: readonly Subnet[] = [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, where cloud metadata lives
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.31.196.0', 24], // AS112
  ['192.52.193.0', 24], // AMT
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['192.175.48.0', 24], // AS112
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and the broadcast address
];

/** IPv6 global unicast is 2000::/3; everything outside it (loopback, link-local, unique-local…) is refused. */
const GLOBAL_UNICAST_V6: Subnet = ['2000::', 3];

/**
 * Ranges inside 2000::/3 that are not plain public unicast: the ones that carry an IPv4 address the network
 * may route to (6to4, Teredo), documentation, benchmarking and other special-purpose blocks.
 */
const SPECIAL_V6: readonly Subnet[] = [
  ['2001::', 23], // IETF protocol assignments, Teredo (2001::/32) among them
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4
  ['2620:4f:8000::', 48], // AS112
  ['3fff::', 20], // documentation
];

const IPV4_MAPPED_V6: Subnet = ['::ffff:0:0', 96];

function blockList(subnets: readonly Subnet[], type: 'ipv4' | 'ipv6'): BlockList {
  const list = new BlockList();
  for (const [network, prefix] of subnets) list.addSubnet(network, prefix, type);
  return list;
}

const specialV4 = blockList(SPECIAL_V4, 'ipv4');
const specialV6 = blockList(SPECIAL_V6, 'ipv6');
const globalUnicastV6 = blockList([GLOBAL_UNICAST_V6], 'ipv6');
const ipv4MappedV6 = blockList([IPV4_MAPPED_V6], 'ipv6');

export function isPublicAddress(address: string): boolean {
  switch (isIP(address)) {
    case 4:
      return !specialV4.check(address, 'ipv4');
    case 6:
      // `::ffff:a.b.c.d` reaches the IPv4 address itself: BlockList matches IPv4 rules against it.
      if (ipv4MappedV6.check(address, 'ipv6')) return !specialV4.check(address, 'ipv6');
      return globalUnicastV6.check(address, 'ipv6') && !specialV6.check(address, 'ipv6');
    default:
      return false;
  }
}

/** An IP literal as URL hosts spell it (`[::1]` for IPv6), or undefined for a name that needs DNS. */
export function ipLiteral(hostname: string): string | undefined {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return isIP(bare) === 0 ? undefined : bare;
}
