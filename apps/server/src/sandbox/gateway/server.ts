import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { ConvergeCredentials } from '../../providers/gateway/converge-protocol.js';
import { hostedPaymentRoutes } from './hosted-payments.js';
import { sandboxShell } from './shell.js';
import type { SandboxDb } from './store.js';
import { threeDSecureRoutes } from './three-d-secure.js';
import { xmlApiRoutes } from './xml-api.js';

/**
 * The sandbox card gateway: a separate service on its own origin (GATEWAY_ORIGIN) that behaves like Converge's
 * hosted payments + XML API and Elavon's 3DS2 service for the test cards in test-cards.ts. It speaks the gateway
 * protocol (providers/gateway/converge-protocol.ts) and knows nothing else of the server: its composer
 * (side-servers.ts) hands it a database for its own `sandbox_gateway_*` tables, a logger, the two origins and the
 * merchant credentials to accept. Card numbers are used in memory and never stored or logged (brand + last 4 only).
 */
export interface SandboxGatewayOptions {
  db: SandboxDb;
  logger: FastifyBaseLogger;
  /** The app's origin (PUBLIC_URL): the only one that may call it from a browser or frame its challenge page. */
  publicUrl: string;
  /** Its own origin (GATEWAY_ORIGIN), written into its scripts and the challenge URL. */
  origin: string;
  /** The merchant credentials it accepts, asked on every request that carries them. */
  credentials: () => Promise<ConvergeCredentials>;
}

export async function buildSandboxGateway(opts: SandboxGatewayOptions): Promise<FastifyInstance> {
  const { db, origin, credentials } = opts;
  const app = await sandboxShell({ logger: opts.logger, publicUrl: opts.publicUrl });
  hostedPaymentRoutes({ app, db, origin, credentials });
  threeDSecureRoutes({ app, db, origin, publicUrl: opts.publicUrl });
  xmlApiRoutes({ app, db, credentials });
  return app;
}
