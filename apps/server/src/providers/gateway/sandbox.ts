import type { Config } from '../../config.js';
import type { Db, Queryable } from '../../db/client.js';
import { getOrCreateSecret } from '../../lib/secrets.js';
import {
  RESULT,
  TXN_TYPE,
  buildXmlRequest,
  parseConvergeXml,
  xmlRequestForm,
  type ConvergeCredentials,
} from './converge-protocol.js';
import { convergeEndpoints, createConvergeGateway } from './converge.js';
import type { CardGateway } from './types.js';

/**
 * The sandbox gateway's merchant credentials: fixed ids and a PIN generated once per database, so the app (which
 * asks for tokens and queries transactions) and the gateway (which its composer tells to accept them) share it
 * without configuration.
 */
const SANDBOX_MERCHANT_ID = '0099999';
const SANDBOX_USER_ID = 'paylink_sandbox';

export async function sandboxGatewayCredentials(db: Queryable): Promise<ConvergeCredentials> {
  const pin = await getOrCreateSecret(db, 'sandbox_gateway_pin');
  return { merchantId: SANDBOX_MERCHANT_ID, userId: SANDBOX_USER_ID, pin };
}

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
  const xml = buildXmlRequest(creds, TXN_TYPE.settle, opts.txnId ? { ssl_txn_id: opts.txnId } : {});
  const r = await fetch(convergeEndpoints('demo', opts.origin).xmlUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: xmlRequestForm(xml).toString(),
  });
  const f = parseConvergeXml(await r.text()).txns[0] ?? {};
  if (f.ssl_result !== RESULT.approved)
    throw new Error(f.errorMessage || 'The sandbox gateway did not settle the batch.');
  return Number(f.ssl_txn_count ?? 0);
}
