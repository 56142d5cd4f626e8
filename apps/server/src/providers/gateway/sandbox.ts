import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { sandboxGatewayCredentials } from '../../sandbox/gateway/credentials.js';
import { convergeEndpoints, createConvergeGateway } from './converge.js';
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
