import type { Queryable } from '../../db/client.js';
import { getOrCreateSecret } from '../../lib/secrets.js';

/**
 * The sandbox gateway's merchant credentials: fixed ids and a PIN generated once per database, so the app (which
 * asks for tokens and queries transactions) and the gateway (which checks them) share it without configuration.
 */
const SANDBOX_MERCHANT_ID = '0099999';
const SANDBOX_USER_ID = 'paylink_sandbox';

export async function sandboxGatewayCredentials(db: Queryable) {
  const pin = await getOrCreateSecret(db, 'sandbox_gateway_pin');
  return { merchantId: SANDBOX_MERCHANT_ID, userId: SANDBOX_USER_ID, pin };
}
