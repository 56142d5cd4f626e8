import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { sandboxGatewayCredentials } from '../../sandbox/gateway/credentials.js';
import { buildXmlRequest, convergeEndpoints, createConvergeGateway, parseConvergeXml } from './converge.js';
import type { CardGateway } from './types.js';

/**
 * The sandbox gateway speaks Converge's protocol on its own origin (apps/server/src/sandbox/gateway), so the sandbox
 * adapter is the Converge client pointed there with the sandbox's credentials.
 */
export function createSandboxGateway(opts: { config: Config; db: Db; origin?: string }): CardGateway {
  let creds: ReturnType<typeof sandboxGatewayCredentials> | undefined;
  return createConvergeGateway({
    kind: 'sandbox',
    credentials: () => (creds ??= sandboxGatewayCredentials(opts.db)),
    endpoints: convergeEndpoints('demo', opts.origin ?? opts.config.gatewayOrigin),
    timeoutMs: 10_000,
  });
}

/**
 * Closes the sandbox gateway's batch (its ccsettle call): every open sale, or the one given, becomes settled, so only a
 * return can give money back. Real Converge settles on its own schedule; this is for tests, demos and the CLI.
 */
export async function settleSandboxBatch(opts: { db: Db; origin: string; txnId?: string }): Promise<number> {
  const creds = await sandboxGatewayCredentials(opts.db);
  const xml = buildXmlRequest(creds, 'ccsettle', opts.txnId ? [['ssl_txn_id', opts.txnId]] : []);
  const r = await fetch(convergeEndpoints('demo', opts.origin).xmlUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ xmldata: xml }).toString(),
  });
  const f = parseConvergeXml(await r.text()).txns[0] ?? {};
  if (f.ssl_result !== '0') throw new Error(f.errorMessage || 'The sandbox gateway did not settle the batch.');
  return Number(f.ssl_txn_count ?? 0);
}
