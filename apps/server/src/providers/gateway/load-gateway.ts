import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { convergeEndpoints, createConvergeGateway } from './converge.js';
import { createSandboxGateway } from './sandbox.js';
import type { CardGateway } from './types.js';

export type { CardGateway } from './types.js';

/** Real Converge when its credentials are configured; otherwise the sandbox gateway on GATEWAY_ORIGIN. */
export function loadGateway(opts: { config: Config; db: Db }): CardGateway {
  const c = opts.config;
  if (c.sandbox.gateway) return createSandboxGateway(opts);
  return createConvergeGateway({
    credentials: { merchantId: c.CONVERGE_MERCHANT_ID!, userId: c.CONVERGE_USER_ID!, pin: c.CONVERGE_PIN! },
    endpoints: convergeEndpoints(c.CONVERGE_ENV, c.CONVERGE_API_BASE),
  });
}
