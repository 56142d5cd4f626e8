import type { FastifyInstance } from 'fastify';
import type { AppContext } from './context.js';
import { buildSignServer } from './modules/signing/index.js';
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
    build: buildSandboxGateway,
  },
];
