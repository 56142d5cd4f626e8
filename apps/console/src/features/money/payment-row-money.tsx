import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PaymentReport } from '../../shared/api/contract';
import { useFocusWhen } from '../../shared/lib/focus';
import { useCan } from '../../shared/session/use-session';
import { RefundDialog } from './refund-dialog';
import { RefundStateBadge } from './refund-state-badge';

/**
 * On a payments-screen row: the refund state, and the refund action for billing and admin (a deposit or balance
 * payment; an instalment's row links to its page, where the plan card refunds it).
 */
export function PaymentRowMoney(props: { row: PaymentReport['rows'][0] }) {
  const { t } = useTranslation();
  const can = useCan();
  const [open, setOpen] = useState(false);
  // After a refund, once the dialog has gone, focus goes to the row's refund state (the Refund button is gone after a
  // full refund): never <body> (issue 29, item 6; decision 0220). After a cancel it goes back to the Refund button.
  const refundedNow = useRef(false);
  const [refunds, setRefunds] = useState(0);
  const state = useFocusWhen<HTMLSpanElement>(refunds);
  const r = props.row;
  const refunded = r.refunded ?? 0;
  if (r.status !== 'approved') return null;
  return (
    <>
      <span ref={state} tabIndex={-1}>
        <RefundStateBadge amount={r.amount} refunded={refunded} />
      </span>
      {can('payments.refund') && (
        <div>
          {/* An instalment is refunded from its link's Payment plan card; this action gives back the link's payment. */}
          {refunded < r.amount && !r.installment && (
            <button
              type="button"
              className="btn btn-link btn-sm p-0"
              aria-label={`${t('money.refund.action')} ${r.firstName} ${r.lastName}`}
              onClick={() => setOpen(true)}
            >
              {t('money.refund.action')}
            </button>
          )}
          {/* Stays mounted after a full refund (the button is gone) so that it can finish closing. */}
          <RefundDialog
            show={open}
            target={{ linkId: r.linkId, amount: r.amount, refunded, cardBrand: r.cardBrand, cardLast4: r.cardLast4 }}
            onClose={(result) => {
              setOpen(false);
              refundedNow.current = !!result;
            }}
            onExited={() => {
              if (refundedNow.current) setRefunds((n) => n + 1);
            }}
          />
        </div>
      )}
    </>
  );
}
