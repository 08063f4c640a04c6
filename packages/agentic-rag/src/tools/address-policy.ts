import type { LookupFunction } from 'node:net';

/**
 * IPv4 ranges that are not the public internet, from the IANA special-purpose registry, plus
 * cloud metadata endpoints that live at public-looking addresses.
 */
const BLOCKED_IPV4 = [
  '0.0.0.0/8', // "this network", includes the unspecified 0.0.0.0
  '10.0.0.0/8', // private
  '100.64.0.0/10', // carrier-grade NAT; Alibaba's metadata service is 100.100.100.200
  '127.0.0.0/8', // loopback
  '169.254.0.0/16', // link-local; AWS, GCP, Azure and OCI metadata at 169.254.169.254, ECS at .170.2
  '172.16.0.0/12', // private
  '192.0.0.0/24', // IETF protocol assignments
  '192.0.2.0/24', // documentation
  '192.88.99.0/24', // deprecated 6to4 relay anycast
  '192.168.0.0/16', // private
  '198.18.0.0/15', // benchmarking
  '198.51.100.0/24', // documentation
  '203.0.113.0/24', // documentation
  '224.0.0.0/4', // multicast
  '240.0.0.0/4', // reserved, includes the broadcast 255.255.255.255
  '168.63.129.16/32', // Azure's host endpoint (DHCP, DNS, health probes) on every VM
].map((cidr) => parseCidr(cidr, parseIpv4, 32));

/** Global unicast is 2000::/3; everything outside it (loopback, unspecified, IPv4-mapped, unique-
 * local fc00::/7 with AWS's fd00:ec2::254, link-local, multicast) is blocked without a list. */
const GLOBAL_UNICAST = parseCidr('2000::/3', parseIpv6, 128);
const BLOCKED_GLOBAL_IPV6 = [
  '2001::/23', // IETF protocol assignments, includes Teredo 2001::/32
  '2001:db8::/32', // documentation
  '3fff::/20', // documentation
].map((cidr) => parseCidr(cidr, parseIpv6, 128));
/** Prefixes that embed an IPv4 address: judged by the address they carry. */
const NAT64 = parseCidr('64:ff9b::/96', parseIpv6, 128);
const SIX_TO_FOUR = parseCidr('2002::/16', parseIpv6, 128);

/**
 * Whether an HTTP fetch must refuse to connect to `ip`. Anything that is not a well-formed IP
 * address (including IPv4 with leading zeros, which some resolvers read as octal) is blocked:
 * the policy fails closed.
 */
export function isBlockedAddress(ip: string): boolean {
  const address = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  const ipv4 = parseIpv4(address);
  if (ipv4 !== null) return isBlockedIpv4(ipv4);
  const ipv6 = parseIpv6(address);
  if (ipv6 === null) return true;
  if (inRange(ipv6, NAT64)) return isBlockedIpv4(ipv6 & 0xffff_ffffn);
  if (inRange(ipv6, SIX_TO_FOUR)) return isBlockedIpv4((ipv6 >> 80n) & 0xffff_ffffn);
  if (!inRange(ipv6, GLOBAL_UNICAST)) return true;
  return BLOCKED_GLOBAL_IPV6.some((range) => inRange(ipv6, range));
}

interface Range {
  base: bigint;
  mask: bigint;
}

function isBlockedIpv4(address: bigint): boolean {
  return BLOCKED_IPV4.some((range) => inRange(address, range));
}

function inRange(address: bigint, range: Range): boolean {
  return (address & range.mask) === range.base;
}

function parseCidr(cidr: string, parse: (text: string) => bigint | null, bits: number): Range {
  const [text = '', prefixText = ''] = cidr.split('/');
  const address = parse(text);
  if (address === null) throw new Error(`bad CIDR ${cidr}`);
  const prefix = BigInt(prefixText);
  const all = (1n << BigInt(bits)) - 1n;
  const mask = all ^ ((1n << (BigInt(bits) - prefix)) - 1n);
  return { base: address & mask, mask };
}

function parseIpv4(text: string): bigint | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  let value = 0n;
  for (const part of parts) {
    if (!/^(?:0|[1-9]\d{0,2})$/.test(part) || Number(part) > 255) return null;
    value = (value << 8n) | BigInt(part);
  }
  return value;
}

function parseIpv6(text: string): bigint | null {
  // A zone (fe80::1%eth0) names an interface, not part of the address.
  let rest = text.replace(/%[\w.-]+$/, '');
  const groups: number[] = [];
  const dotted = /(?:^|:)(\d+\.\d+\.\d+\.\d+)$/.exec(rest);
  let tail: number[] = [];
  if (dotted) {
    const ipv4 = parseIpv4(dotted[1] as string);
    if (ipv4 === null) return null;
    tail = [Number(ipv4 >> 16n), Number(ipv4 & 0xffffn)];
    rest = rest.slice(0, rest.length - (dotted[1] as string).length);
    // "::1.2.3.4" leaves "::", "64:ff9b::1.2.3.4" leaves "64:ff9b::", "::ffff:1.2.3.4" leaves "::ffff:".
    if (rest.endsWith(':') && !rest.endsWith('::')) rest = rest.slice(0, -1);
  }
  const halves = rest.split('::');
  if (halves.length > 2) return null;
  const parseGroups = (half: string): number[] | null => {
    if (half === '') return [];
    const parsed: number[] = [];
    for (const group of half.split(':')) {
      if (!/^[0-9a-f]{1,4}$/i.test(group)) return null;
      parsed.push(parseInt(group, 16));
    }
    return parsed;
  };
  const head = parseGroups(halves[0] as string);
  const after = halves.length === 2 ? parseGroups(halves[1] as string) : [];
  if (head === null || after === null) return null;
  const explicit = head.length + after.length + tail.length;
  if (halves.length === 2) {
    if (explicit > 7) return null;
    groups.push(...head, ...new Array<number>(8 - explicit).fill(0), ...after, ...tail);
  } else {
    if (explicit !== 8) return null;
    groups.push(...head, ...tail);
  }
  return groups.reduce((value, group) => (value << 16n) | BigInt(group), 0n);
}

export interface ResolvedIp {
  address: string;
  family: number;
}

/**
 * A socket `lookup` that refuses a name when any address it resolves to is blocked: the check
 * sits on the addresses about to be dialled, so DNS rebinding and redirects cannot dodge it.
 * Every address must pass, not only the first: Node may try them all (happy eyeballs), and a
 * mixed answer is a rebinding tell. IP literals never reach a lookup; callers judge those.
 */
export function blockingLookup(
  isBlocked: (ip: string) => boolean,
  resolve: (hostname: string) => Promise<ResolvedIp[]>,
  refuse: (hostname: string, address: string) => Error,
): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (addresses) => {
        const refused = addresses.find((entry) => isBlocked(entry.address));
        if (refused) {
          callback(refuse(hostname, refused.address), '');
          return;
        }
        const usable =
          options.family === 4 || options.family === 6
            ? addresses.filter((entry) => entry.family === options.family)
            : addresses;
        const first = usable[0];
        if (!first) {
          callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '');
        } else if (options.all) {
          callback(null, usable);
        } else {
          callback(null, first.address, first.family);
        }
      },
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };
}
