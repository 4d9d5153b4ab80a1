import { isIPv4, isIPv6 } from 'node:net';

/**
 * Which IP addresses an outgoing request may reach (docs/webhooks.md "Where deliveries may go"):
 * public unicast only. Loopback is a class of its own, so a flag can let it through for local tests.
 */
export type AddressClass = 'public' | 'loopback' | 'private' | 'link-local' | 'shared' | 'metadata' | 'reserved';

type V4Range = [base: number, bits: number, kind: AddressClass];

const V4_RANGES: V4Range[] = [
  [v4('169.254.169.254'), 32, 'metadata'],
  [v4('0.0.0.0'), 8, 'reserved'],
  [v4('10.0.0.0'), 8, 'private'],
  [v4('100.64.0.0'), 10, 'shared'],
  [v4('127.0.0.0'), 8, 'loopback'],
  [v4('169.254.0.0'), 16, 'link-local'],
  [v4('172.16.0.0'), 12, 'private'],
  [v4('192.0.0.0'), 24, 'reserved'],
  [v4('192.0.2.0'), 24, 'reserved'],
  [v4('192.88.99.0'), 24, 'reserved'],
  [v4('192.168.0.0'), 16, 'private'],
  [v4('198.18.0.0'), 15, 'reserved'],
  [v4('198.51.100.0'), 24, 'reserved'],
  [v4('203.0.113.0'), 24, 'reserved'],
  [v4('224.0.0.0'), 4, 'reserved'],
  [v4('240.0.0.0'), 4, 'reserved'],
];

function v4(text: string): number {
  return text.split('.').reduce((value, part) => value * 256 + Number(part), 0);
}

function classifyV4(value: number): AddressClass {
  for (const [base, bits, kind] of V4_RANGES) {
    const size = 2 ** (32 - bits);
    if (value >= base && value < base + size) return kind;
  }
  return 'public';
}

/** The eight 16-bit groups of an IPv6 address (an embedded dotted IPv4 tail included), or null. */
export function ipv6Groups(text: string): number[] | null {
  let address = text.split('%')[0].toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (dotted) {
    if (!isIPv4(dotted[1])) return null;
    const value = v4(dotted[1]);
    address = address.slice(0, dotted.index) + `${(value >>> 16).toString(16)}:${(value & 0xffff).toString(16)}`;
  }
  const halves = address.split('::');
  if (halves.length > 2) return null;
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)));
  const head = parse(halves[0]);
  const tail = halves.length === 2 ? parse(halves[1]) : [];
  const missing = 8 - head.length - tail.length;
  if (missing < 0 || (halves.length === 1 && missing !== 0)) return null;
  const groups = [...head, ...Array<number>(halves.length === 2 ? missing : 0).fill(0), ...tail];
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null;
}

function classifyV6(groups: number[]): AddressClass {
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups;
  const embeddedV4 = g6 * 65536 + g7;
  const zeroUpTo = (n: number) => groups.slice(0, n).every((g) => g === 0);
  if (zeroUpTo(7) && g7 === 1) return 'loopback';
  if (zeroUpTo(8)) return 'reserved';
  // IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d) and NAT64 (64:ff9b::a.b.c.d): judged as the IPv4 address.
  if (zeroUpTo(5) && g5 === 0xffff) return classifyV4(embeddedV4);
  if (zeroUpTo(6)) return classifyV4(embeddedV4);
  if (g0 === 0x64 && g1 === 0xff9b && zeroUpTo(0) && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return classifyV4(embeddedV4);
  // 6to4 (2002:a.b.c.d::/48): the IPv4 address is in groups 1 and 2.
  if (g0 === 0x2002) return classifyV4(g1 * 65536 + g2);
  if (g0 === 0xfd00 && g1 === 0x0ec2 && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0 && g6 === 0 && g7 === 0x254) return 'metadata';
  if ((g0 & 0xfe00) === 0xfc00) return 'private'; // unique local fc00::/7
  if ((g0 & 0xffc0) === 0xfe80 || (g0 & 0xffc0) === 0xfec0) return 'link-local'; // fe80::/10, site-local fec0::/10
  if ((g0 & 0xff00) === 0xff00) return 'reserved'; // multicast
  if (g0 === 0x2001 && g1 === 0x0db8) return 'reserved'; // documentation
  if (g0 === 0x0100 && g1 === 0 && g2 === 0 && g3 === 0) return 'reserved'; // discard
  if ((g0 & 0xe000) !== 0x2000) return 'reserved'; // outside global unicast 2000::/3
  return 'public';
}

/** The class of an IP address literal (v4 or v6); null when the text is not one. */
export function classifyAddress(address: string): AddressClass | null {
  if (isIPv4(address)) return classifyV4(v4(address));
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  if (!isIPv6(bare)) return null;
  const groups = ipv6Groups(bare);
  return groups ? classifyV6(groups) : 'reserved';
}
