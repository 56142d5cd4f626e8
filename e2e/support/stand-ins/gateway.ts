import os from 'node:os';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { loadConfig } from '../../../apps/server/src/config.js';
import type { Db } from '../../../apps/server/src/db/client.js';
import { sandboxGatewayCredentials, settleSandboxBatch } from '../../../apps/server/src/providers/gateway/sandbox.js';
import { buildSandboxGateway } from '../../../apps/server/src/sandbox/gateway/server.js';
import { createTestDb } from '../../../apps/server/test/support/test-db.js';
import { freePort } from '../../../apps/server/test/support/ports.js';

/**
 * The card gateway for the production rehearsal: the product's own sandbox gateway (apps/server/src/sandbox/gateway,
 * which speaks Converge's hosted-payments API, its XML API and Elavon's 3-D Secure service for the test cards), run
 * here as its own server on a free port with its own database. A product in production mode never starts it (the
 * sandbox gateway is a side server only while Converge credentials are missing), so the real Converge adapter is
 * pointed at this one with the merchant credentials it checks: ids 0099999 / paylink_sandbox and the PIN generated
 * in its database.
 */
export interface GatewayStandIn {
  origin: string;
  credentials: { merchantId: string; userId: string; pin: string };
  /** The product's Converge settings pointing at this gateway (API, XML API, Checkout.js, 3DS SDK and service). */
  env: Record<string, string>;
  /** Closes the batch (the sandbox's ccsettle): open sales become settled, so only a return gives money back. */
  settle(txnId?: string): Promise<number>;
  db: Db;
  stop(): Promise<void>;
}

export async function startGatewayStandIn(opts: {
  /** The product's PUBLIC_URL: the gateway's CORS and frame-ancestors allow only it. */
  publicUrl: string;
  logLevel?: string;
}): Promise<GatewayStandIn> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const config = loadConfig({
    PAYLINK_MODE: 'sandbox',
    NODE_ENV: 'production',
    LOG_LEVEL: opts.logLevel ?? 'warn',
    HOST: '127.0.0.1',
    PUBLIC_URL: opts.publicUrl,
    GATEWAY_PORT: String(port),
    GATEWAY_ORIGIN: origin,
    PAYLINK_DATA_DIR: os.tmpdir(),
  });
  const db = await createTestDb();
  let server: FastifyInstance | undefined;
  try {
    server = await buildSandboxGateway({
      db,
      logger: pino({ level: config.LOG_LEVEL }).child({ service: 'sandbox-gateway' }),
      publicUrl: config.publicUrl,
      origin: config.gatewayOrigin,
      credentials: () => sandboxGatewayCredentials(db),
    });
    await server.listen({ port, host: '127.0.0.1' });
    const credentials = await sandboxGatewayCredentials(db);
    return {
      origin,
      credentials,
      env: {
        CONVERGE_MERCHANT_ID: credentials.merchantId,
        CONVERGE_USER_ID: credentials.userId,
        CONVERGE_PIN: credentials.pin,
        // Production, so the adapter uses the live XML path (/VirtualMerchant/processxml.do), which the gateway serves.
        CONVERGE_ENV: 'production',
        CONVERGE_API_BASE: origin,
        CONVERGE_CHECKOUT_JS_URL: `${origin}/hosted-payments/Checkout.js`,
        CONVERGE_3DS_SDK_URL: `${origin}/3ds2/web-sdk.js`,
        CONVERGE_3DS_BASE_URL: `${origin}/3ds2`,
        // The challenge page is the gateway's own (a real issuer's ACS would be another origin).
        CONVERGE_3DS_FRAME_ORIGINS: origin,
      },
      settle: (txnId) => settleSandboxBatch({ db, origin, txnId }),
      db,
      stop: async () => {
        await server?.close();
        await db.close();
      },
    };
  } catch (err) {
    await server?.close();
    await db.close();
    throw err;
  }
}
