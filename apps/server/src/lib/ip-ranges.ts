import ipaddr from 'ipaddr.js';

/** An address range as ipaddr.js matches it: the network and its prefix length. */
export type IpRange = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** WEBHOOK_ALLOW_PRIVATE: CIDR ranges, comma-separated. Answers the parsed ranges, or the message for a bad one. */
export function parseAllowedRanges(v: string | undefined): IpRange[] | string {
  const out: IpRange[] = [];
  for (const part of (v ?? '').split(',').map((x) => x.trim())) {
    if (!part) continue;
    try {
      out.push(part.includes('/') ? ipaddr.parseCIDR(part) : [ipaddr.parse(part), part.includes(':') ? 128 : 32]);
    } catch {
      return `"${part}" is not an address range: write ranges like 10.20.0.0/16,fd00::/8`;
    }
  }
  return out;
}
