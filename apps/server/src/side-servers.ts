import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { AppContext } from './context.js';
import { buildSignServer } from './modules/signing/index.js';
import { sandboxGatewayCredentials } from './providers/gateway/sandbox.js';
import { buildSandboxGateway } from './sandbox/gateway/server.js';

/**
 * Services that must live on their own origin (so the app's origin checks are real): the signing service and, in
 * sandbox mode, the card gateway stand-in. main.ts starts each on its port; tests may build them directly.
 */
export interface SideServer {
  name: string;
  /** false when this process should not serve it (e.g. the sandbox gateway with real Converge credentials). */
  enabled: (ctx: AppContext) => boolean;
  port: (ctx: AppContext) => number;
  origin: (ctx: AppContext) => string;
  build: (ctx: AppContext) => Promise<FastifyInstance>;
}

export const sideServers: SideServer[] = [
  {
    // Always on: in production SIGN_ORIGIN is a public origin that a reverse proxy sends to SIGN_PORT (docs/signing.md).
    name: 'Signing',
    enabled: () => true,
    port: (ctx) => ctx.config.SIGN_PORT,
    origin: (ctx) => ctx.config.signOrigin,
    build: buildSignServer,
  },
  {
    name: 'Gateway',
    enabled: (ctx) => ctx.config.sandbox.gateway,
    port: (ctx) => ctx.config.GATEWAY_PORT,
    origin: (ctx) => ctx.config.gatewayOrigin,
    build: sandboxGatewayFor,
  },
];

/**
 * The sandbox gateway composed from the server's context: it knows only the gateway protocol, so it is handed its
 * database, logger, origins and the sandbox merchant credentials the app's adapter uses.
 */
export function sandboxGatewayFor(ctx: AppContext): Promise<FastifyInstance> {
  // Read once, as the app's adapter does (createSandboxGateway): generated once per database, never changed.
  let creds: ReturnType<typeof sandboxGatewayCredentials> | undefined;
  return buildSandboxGateway({
    db: ctx.db,
    logger: ctx.log.child({ service: 'sandbox-gateway' }) as FastifyBaseLogger,
    publicUrl: ctx.config.publicUrl,
    origin: ctx.config.gatewayOrigin,
    credentials: () =>
      (creds ??= sandboxGatewayCredentials(ctx.db).catch((err: unknown) => {
        creds = undefined; // a database down at the first call is asked again next time
        throw err;
      })),
  });
}
