import { describe, expect, it } from 'vitest';
import { isBlockedAddress } from './address-policy.js';

describe('isBlockedAddress', () => {
  it.each([
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', '"this network"'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private, last address'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['100.100.100.200', 'Alibaba metadata (CGNAT)'],
    ['100.127.255.255', 'carrier-grade NAT, last address'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback, anywhere in /8'],
    ['169.254.0.1', 'link-local'],
    ['169.254.169.254', 'cloud metadata'],
    ['169.254.170.2', 'ECS task metadata'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private, last address'],
    ['192.0.0.8', 'IETF protocol assignments'],
    ['192.0.2.10', 'documentation'],
    ['192.168.1.1', 'private'],
    ['198.18.0.1', 'benchmarking'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.9', 'documentation'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast (SSDP)'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'broadcast'],
    ['168.63.129.16', 'Azure host endpoint'],
    ['::', 'IPv6 unspecified'],
    ['::1', 'IPv6 loopback'],
    ['0:0:0:0:0:0:0:1', 'IPv6 loopback, uncompressed'],
    ['[::1]', 'IPv6 loopback in URL brackets'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback, dotted'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback, hex'],
    ['[::ffff:7f00:1]', 'IPv4-mapped loopback in brackets'],
    ['::FFFF:7F00:0001', 'IPv4-mapped loopback, upper case'],
    ['::ffff:8.8.8.8', 'IPv4-mapped, even of a public address'],
    ['::127.0.0.1', 'IPv4-compatible (deprecated)'],
    ['64:ff9b::127.0.0.1', 'NAT64 of loopback'],
    ['64:ff9b::a9fe:a9fe', 'NAT64 of the metadata address'],
    ['64:ff9b:1::1', 'local-use NAT64'],
    ['2002:7f00:1::', '6to4 of loopback'],
    ['2002:a00:1::1', '6to4 of 10.0.0.1'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456:789a::1', 'unique-local'],
    ['fd00:ec2::254', 'AWS IPv6 metadata'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local with a zone'],
    ['febf:ffff::1', 'link-local, last block'],
    ['fec0::1', 'site-local (deprecated)'],
    ['ff02::1', 'multicast'],
    ['100::1', 'discard-only'],
    ['2001:db8::1', 'documentation'],
    ['2001::1', 'Teredo'],
    ['3fff::1', 'documentation'],
  ])('blocks %s (%s)', (ip) => {
    expect(isBlockedAddress(ip)).toBe(true);
  });

  it.each([
    ['8.8.8.8'],
    ['1.1.1.1'],
    ['93.184.215.14'],
    ['9.255.255.255'], // just below 10/8
    ['11.0.0.0'], // just above 10/8
    ['100.63.255.255'], // just below CGNAT
    ['100.128.0.0'], // just above CGNAT
    ['172.15.255.255'],
    ['172.32.0.0'],
    ['169.253.255.255'],
    ['192.167.255.255'],
    ['223.255.255.255'], // last unicast before multicast
    ['2606:4700:4700::1111'],
    ['2001:4860:4860::8888'],
    ['2a00:1450:4001:82b::200e'],
    ['64:ff9b::8.8.8.8'], // NAT64 of a public address: how IPv6-only networks reach IPv4 sites
    ['2002:808:808::1'], // 6to4 of 8.8.8.8
  ])('allows the public address %s', (ip) => {
    expect(isBlockedAddress(ip)).toBe(false);
  });

  it.each([
    ['localhost'],
    ['example.com'],
    [''],
    ['0x7f000001'],
    ['2130706433'],
    ['0177.0.0.1'], // leading zeros: octal to inet_aton, decimal to a naive parser
    ['127.1'],
    ['256.0.0.1'],
    ['1.2.3.4.5'],
    ['1::2::3'],
    ['1:2:3:4:5:6:7:8:9'],
    ['12345::1'],
    ['::ffff:999.0.0.1'],
    ['8.8.8.8 '],
  ])('fails closed on %j, which is not a canonical IP address', (text) => {
    expect(isBlockedAddress(text)).toBe(true);
  });
});
