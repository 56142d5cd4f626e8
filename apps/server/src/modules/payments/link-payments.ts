import type { LinkPayments, LinkPlans } from '../../context.js';
import type { Db } from '../../db/client.js';
import type { Providers } from '../../providers/index.js';
import { hasLiveToken } from './payment-queries.js';
import { reconcileLink } from './reconcile-payment.js';

/** The links module's port into payments (context.ts), wired in the composition root. */
export function linkPayments(deps: { db: Db; providers: Pick<Providers, 'gateway'>; plans: LinkPlans }): LinkPayments {
  return {
    reconcileLink: ({ linkId, actor }) =>
      reconcileLink({ db: deps.db, gateway: deps.providers.gateway, actor, plans: deps.plans }, linkId),
    hasLiveToken,
  };
}
