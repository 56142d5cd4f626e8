import { compile } from '@fastify/proxy-addr';

/**
 * TRUST_PROXY (issue 26): who may tell the server a client's address through X-Forwarded-For. Fastify, given `true`,
 * takes the leftmost entry, which the client writes whenever the proxy appends to the header (nginx's
 * `$proxy_add_x_forwarded_for`, most load balancers): a client could choose its address. So the setting is either
 * - empty, `false`, `no` or `0`: no proxy, the socket's address is the client's;
 * - a hop count `N` (1–10): the N nearest hops are our proxies, the address before them is the client's;
 * - addresses and ranges of the proxies, comma-separated (`10.0.0.0/8,127.0.0.1`, or proxy-addr's names `loopback`,
 *   `linklocal`, `uniquelocal`): hops from these are trusted, the first other one is the client.
 * A bare `true` is refused at boot. Answers Fastify's `trustProxy` value, or the message for a bad value.
 */
export type TrustProxy = false | number | string[];

const HOW =
  'write how many proxies stand in front of Paylink (TRUST_PROXY=1 for one nginx or load balancer), or their ' +
  'addresses (TRUST_PROXY=10.0.0.0/8,127.0.0.1); leave it empty when clients connect directly';

export function parseTrustProxy(value: string | undefined): TrustProxy | string {
  const v = (value ?? '').trim().toLowerCase();
  if (v === '' || v === 'false' || v === 'no' || v === '0') return false;
  if (v === 'true' || v === 'yes') {
    return `TRUST_PROXY=${v} would let any client choose its address (the first X-Forwarded-For entry): ${HOW}`;
  }
  if (/^\d+$/.test(v)) {
    const n = Number(v);
    return n >= 1 && n <= 10 ? n : `TRUST_PROXY hop count must be between 1 and 10: ${HOW}`;
  }
  const list = v
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  try {
    compile(list);
  } catch (err) {
    return `TRUST_PROXY: ${(err as Error).message}: ${HOW}`;
  }
  return list;
}

/** Fastify's `trustProxy` option (its types have no hop count: a count is the function Fastify would build from it). */
export function fastifyTrustProxy(t: TrustProxy): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof t === 'number' ? (_address, hop) => hop < t : t;
}
