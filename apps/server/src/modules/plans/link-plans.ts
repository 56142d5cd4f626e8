import type { Config } from '../../config.js';
import type { LinkPlans } from '../../context.js';
import type { Db } from '../../db/client.js';
import { depositTerms } from './patient-plan.js';
import { planRecord } from './plan-record.js';
import { storeDepositCard } from './store-deposit-card.js';

/** The payments module's port into plans (context.ts), wired in the composition root. */
export function linkPlans(deps: {
  db: Db;
  config: Pick<Config, 'PAYLINK_SECRETS_KEY' | 'PAYLINK_SECRETS_KEY_PREVIOUS'>;
}): LinkPlans {
  return {
    depositTerms,
    onDepositApproved: (tx, o) => storeDepositCard({ db: deps.db, config: deps.config }, tx, o),
    async receiptTerms(q, linkId, practice) {
      const r = await planRecord(q, linkId, { loaded: practice });
      if (!r) return null;
      return {
        installments: r.installments
          .filter((i) => i.status === 'scheduled' || i.status === 'notified')
          .map((i) => ({ dueOn: i.dueOn, amountCents: i.amountCents })),
        agreement: r.agreement && {
          version: r.agreement.version,
          title: r.agreement.title,
          paragraphs: r.agreement.paragraphs,
        },
      };
    },
  };
}
