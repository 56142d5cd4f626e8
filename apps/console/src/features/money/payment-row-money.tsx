import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PaymentReport } from '../../shared/api/contract';
import { useCan } from '../../shared/session/use-session';
import { RefundDialog } from './refund-dialog';
import { RefundStateBadge } from './refund-state-badge';

/** On a payments-screen row: the refund state, and the refund action for billing and admin. */
export function PaymentRowMoney(props: { row: PaymentReport['rows'][0] }) {
  const { t } = useTranslation();
  const can = useCan();
  const [open, setOpen] = useState(false);
  const r = props.row;
  const refunded = r.refunded ?? 0;
  if (r.status !== 'approved') return null;
  return (
    <>
      <RefundStateBadge amount={r.amount} refunded={refunded} />
      {can('payments.refund') && refunded < r.amount && (
        <div>
          <button
            type="button"
            className="btn btn-link btn-sm p-0"
            aria-label={`${t('money.refund.action')} ${r.firstName} ${r.lastName}`}
            onClick={() => setOpen(true)}
          >
            {t('money.refund.action')}
          </button>
          <RefundDialog
            show={open}
            target={{ linkId: r.linkId, amount: r.amount, refunded, cardBrand: r.cardBrand, cardLast4: r.cardLast4 }}
            onClose={() => setOpen(false)}
          />
        </div>
      )}
    </>
  );
}
