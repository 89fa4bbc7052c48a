/**
 * The one table of internal address ranges: each range at its edges (first and last address in, the neighbours out),
 * in IPv4, IPv6 and IPv4-mapped IPv6 forms, bracketed or not, the IPv6 forms that carry an IPv4 address (NAT64,
 * SIIT, IPv4-compatible, 6to4, Teredo), and the localhost names.
 */
import { describe, expect, it } from 'vitest';
import { internalRange, type InternalRange } from '../../../runtime/http/internal-addresses.js';

const cases: [string, InternalRange | null][] = [
  // unspecified: 0.0.0.0/8, ::
  ['0.0.0.0', 'unspecified'],
  ['0.255.255.255', 'unspecified'],
  ['::', 'unspecified'],
  ['[::]', 'unspecified'],
  ['::ffff:0:0', 'unspecified'],
  // ::2 is IPv4-compatible (below): 0.0.0.2, "this network".
  ['::2', 'unspecified'],
  // loopback: 127.0.0.0/8, ::1, the localhost names
  ['127.0.0.1', 'loopback'],
  ['127.255.255.255', 'loopback'],
  ['126.255.255.255', null],
  ['128.0.0.0', null],
  ['::1', 'loopback'],
  ['[::1]', 'loopback'],
  ['0:0:0:0:0:0:0:1', 'loopback'],
  ['::ffff:127.0.0.1', 'loopback'],
  ['::ffff:7f00:1', 'loopback'],
  ['[::FFFF:7F00:1]', 'loopback'],
  ['0:0:0:0:0:ffff:7f00:1', 'loopback'],
  ['localhost', 'loopback'],
  ['LOCALHOST', 'loopback'],
  ['localhost.', 'loopback'],
  ['api.localhost', 'loopback'],
  ['api.localhost.', 'loopback'],
  ['localhost.example.com', null],
  ['notlocalhost', null],
  // link-local: 169.254.0.0/16, fe80::/10
  ['169.254.169.254', 'link-local'],
  ['169.254.0.0', 'link-local'],
  ['169.255.0.0', null],
  ['::ffff:a9fe:a9fe', 'link-local'],
  ['::ffff:169.254.169.254', 'link-local'],
  ['fe80::1', 'link-local'],
  ['[FE80::1]', 'link-local'],
  ['febf:ffff::1', 'link-local'],
  ['fec0::1', null],
  ['fe7f::1', null],
  // Three-digit groups: fe8:: is 0fe8::, far from fe80::/10.
  ['fe8::1', null],
  ['feb::1', null],
  // private: 10/8, 172.16/12, 192.168/16
  ['10.0.0.0', 'private'],
  ['10.255.255.255', 'private'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['172.15.255.255', null],
  ['172.32.0.0', null],
  ['192.168.1.1', 'private'],
  ['192.169.0.0', null],
  ['::ffff:10.1.2.3', 'private'],
  // shared (carrier-grade NAT): 100.64/10
  ['100.64.0.0', 'shared'],
  ['100.127.255.255', 'shared'],
  ['100.128.0.0', null],
  // unique-local: fc00::/7
  ['fc00::1', 'unique-local'],
  ['fd00:ec2::254', 'unique-local'],
  ['fdff:ffff::1', 'unique-local'],
  ['fe00::1', null],
  ['fbff::1', null],
  // NAT64, well-known prefix 64:ff9b::/96 (RFC 6052): judged as the IPv4 address in the last 32 bits
  ['64:ff9b::7f00:1', 'loopback'],
  ['64:ff9b::127.0.0.1', 'loopback'],
  ['0064:ff9b:0:0:0:0:7f00:1', 'loopback'],
  ['[64:FF9B::A9FE:A9FE]', 'link-local'],
  ['64:ff9b::a00:1', 'private'],
  ['64:ff9b::6440:1', 'shared'],
  ['64:ff9b::', 'unspecified'],
  ['64:ff9b::808:808', null],
  // Outside the /96 (a non-zero group 5): no fixed place for an IPv4 address, and not internal.
  ['64:ff9b::1:7f00:1', null],
  // NAT64, local-use prefix 64:ff9b:1::/48 (RFC 8215): the IPv4 address's place depends on the deployment
  ['64:ff9b:1::', 'local-translation'],
  ['64:ff9b:1::808:808', 'local-translation'],
  ['64:ff9b:1:ffff:ffff:ffff:ffff:ffff', 'local-translation'],
  ['64:ff9b:0:ffff:ffff:ffff:ffff:ffff', null],
  ['64:ff9b:2::', null],
  // 6to4, 2002::/16 (RFC 3056): judged as the IPv4 address in bits 16 to 47
  ['2002:7f00:1::', 'loopback'],
  ['[2002:7F00:0001:0:0:0:0:1]', 'loopback'],
  ['2002:a9fe:a9fe::1', 'link-local'],
  ['2002:c0a8:101:1::1', 'private'],
  ['2002::', 'unspecified'],
  ['2002:808:808::1', null],
  ['2001:ffff:7f00:1::', null],
  ['2003:7f00:1::', null],
  // SIIT's IPv4-translated ::ffff:0:0:0/96 (RFC 6145): the last 32 bits
  ['::ffff:0:7f00:1', 'loopback'],
  ['::ffff:0:a9fe:a9fe', 'link-local'],
  ['0:0:0:0:ffff:0:c0a8:101', 'private'],
  ['::ffff:0:808:808', null],
  ['::fffe:0:7f00:1', null],
  // IPv4-compatible ::/96 (RFC 4291, deprecated): the last 32 bits; :: and ::1 stay unspecified and loopback (above)
  ['::7f00:1', 'loopback'],
  ['::127.0.0.1', 'loopback'],
  ['[::A9FE:A9FE]', 'link-local'],
  ['::a00:1', 'private'],
  ['::6440:1', 'shared'],
  ['::808:808', null],
  ['::1:0:7f00:1', null],
  // Teredo 2001::/32 (RFC 4380): the client's address, every bit inverted, in the last 32 bits
  ['2001::80ff:fffe', 'loopback'],
  ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'loopback'],
  ['2001:0:4136:e378:8000:63bf:5601:5601', 'link-local'],
  ['2001:0:4136:e378:8000:63bf:f5ff:fffe', 'private'],
  ['2001:0:4136:e378:8000:63bf:9bbf:fffe', 'shared'],
  ['2001:0:4136:e378:8000:63bf:ffff:ffff', 'unspecified'],
  // RFC 4380's own example, client 192.0.2.45: public here
  ['2001:0:4136:e378:8000:63bf:3fff:fdd2', null],
  // The server's address (bits 32 to 63) is not where packets go
  ['2001:0:7f00:1:8000:63bf:3fff:fdd2', null],
  ['2001:1::80ff:fffe', null],
  // public
  ['8.8.8.8', null],
  ['::ffff:8.8.8.8', null],
  ['2001:4860:4860::8888', null],
  ['example.com', null],
];

describe('internalRange', () => {
  it.each(cases)('%s is %s', (host, range) => {
    expect(internalRange(host)).toBe(range);
  });

  it('reads every form the URL parser gives a host in (numeric IPv4, IPv4-mapped, uncompressed IPv6)', () => {
    const hostOf = (url: string) => internalRange(new URL(url).hostname);
    expect(hostOf('http://2130706433/')).toBe('loopback');
    expect(hostOf('http://0x7f.1/')).toBe('loopback');
    expect(hostOf('http://0/')).toBe('unspecified');
    expect(hostOf('http://[::ffff:169.254.169.254]/')).toBe('link-local');
    expect(hostOf('http://[0:0:0:0:0:0:0:0]/')).toBe('unspecified');
    expect(hostOf('http://[0fe8::1]/')).toBeNull();
    expect(hostOf('http://[64:ff9b::169.254.169.254]/')).toBe('link-local');
    expect(hostOf('http://[0:64:ff9b:0:0:0:0:a9fe]/')).toBeNull();
    expect(hostOf('http://[2002:7f00:0001::]/')).toBe('loopback');
    expect(hostOf('http://[::127.0.0.1]/')).toBe('loopback');
    expect(hostOf('http://[::ffff:0:169.254.169.254]/')).toBe('link-local');
    expect(hostOf('http://[2001:0000:4136:e378:8000:63bf:80ff:fffe]/')).toBe('loopback');
  });
});
