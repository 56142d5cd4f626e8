import dns from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import type { Config } from '../../config.js';
import type { IpRange } from '../../lib/ip-ranges.js';

/**
 * Where a webhook may be sent (issue 26): only to public addresses. Loopback, private ranges, link-local (the cloud
 * metadata service at 169.254.169.254), carrier-grade NAT, unique-local and every other non-unicast range are refused,
 * whether written as a literal (any spelling: `2130706433`, `::ffff:127.0.0.1`) or reached through DNS. An admin may
 * allow listed ranges with WEBHOOK_ALLOW_PRIVATE (a receiver on the practice's own network); the sandbox keeps
 * loopback for local receivers. The check runs when an endpoint is registered and again on the address each delivery
 * connects to, so a name that later resolves inside is refused too. Deliveries follow no redirect.
 */
export interface WebhookPolicy {
  allowLoopback: boolean;
  allowed: IpRange[];
}

export type Lookup = (host: string) => Promise<string[]>;

export const systemLookup: Lookup = async (host) => (await dns.lookup(host, { all: true })).map((a) => a.address);

/** Names that mean "this machine" or a cloud metadata service, refused before any lookup. */
const INTERNAL_NAMES = /(^|\.)(localhost|localdomain|internal|local)$|^(metadata|metadata\.goog|instance-data)$/;

export function webhookPolicy(config: Pick<Config, 'mode' | 'WEBHOOK_ALLOW_PRIVATE'>): WebhookPolicy {
  return { allowLoopback: config.mode === 'sandbox', allowed: config.WEBHOOK_ALLOW_PRIVATE };
}

/** Null when the address may receive webhooks; otherwise why not. */
export function refuseAddress(address: string, policy: WebhookPolicy): string | null {
  let ip: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    ip = ipaddr.process(address); // IPv4-mapped IPv6 becomes the IPv4 address it carries
  } catch {
    return `not an address: ${address}`;
  }
  const range = ip.range();
  if (range === 'unicast') return null;
  if (range === 'loopback' && policy.allowLoopback) return null;
  if (policy.allowed.some(([net, bits]) => net.kind() === ip.kind() && ip.match(net, bits))) return null;
  return `internal address ${ip.toString()} (${range})`;
}

/**
 * Null when `url` may receive webhooks; otherwise a sentence saying why. Resolves the host (every address must pass).
 * A name that does not resolve now is not refused here (delivery checks again and retries).
 */
export async function checkWebhookUrl(url: string, policy: WebhookPolicy, lookup: Lookup = systemLookup) {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (ipaddr.isValid(host)) {
    const refused = refuseAddress(host, policy);
    return refused && `${url} points at an ${refused}`;
  }
  if (INTERNAL_NAMES.test(host.replace(/\.$/, ''))) {
    if (policy.allowLoopback && /(^|\.)localhost$/.test(host)) return checkResolved(url, host, policy, lookup);
    return `${url} points at an internal name (${host})`;
  }
  return checkResolved(url, host, policy, lookup);
}

async function checkResolved(url: string, host: string, policy: WebhookPolicy, lookup: Lookup) {
  let addresses: string[];
  try {
    addresses = await lookup(host);
  } catch {
    return null;
  }
  for (const a of addresses) {
    const refused = refuseAddress(a, policy);
    if (refused) return `${url} points at an ${refused} through DNS`;
  }
  return null;
}

/**
 * For a delivery: the one address to connect to, checked. The request then connects to exactly this address (no
 * second lookup between the check and the connection, so a name cannot switch inside in between). Throws when the
 * destination is refused or does not resolve (the delivery is retried later).
 */
export async function deliveryAddress(url: string, policy: WebhookPolicy, lookup: Lookup = systemLookup) {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const refusedName = !ipaddr.isValid(host) && (await checkWebhookUrl(url, policy, async () => []));
  if (refusedName) throw new Error(`refused: ${refusedName}`);
  const addresses = ipaddr.isValid(host) ? [host] : await lookup(host);
  if (!addresses.length) throw new Error(`${host} has no address`);
  for (const a of addresses) {
    const refused = refuseAddress(a, policy);
    if (refused) throw new Error(`refused: ${url} points at an ${refused}`);
  }
  const address = addresses[0]!;
  return { address, family: address.includes(':') ? 6 : 4 };
}
