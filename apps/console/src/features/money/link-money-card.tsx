import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ConsoleLinkDetail, RefundResult } from '../../shared/api/contract';
import { ErrorAlert, Loading } from '../../shared/components/query-state';
import { formatDateTime, formatMoney } from '../../shared/lib/format';
import { useCan } from '../../shared/session/use-session';
import { evidenceUrl, useLinkRefunds } from './money-api';
import { remainingCents } from './refund-amount';
import { RefundDialog } from './refund-dialog';
import { RefundStateBadge } from './refund-state-badge';

/**
 * The link page's money card (billing and admin only): what was charged and refunded over the deposit and every plan
 * instalment, the refunds and voids (each naming its instalment), the deposit's refund action and the dispute
 * evidence pack.
 */
export function LinkMoneyCard(props: { link: ConsoleLinkDetail }) {
  const can = useCan();
  if (!can('payments.refund')) return null;
  return <MoneyCard link={props.link} />;
}

function MoneyCard(props: { link: ConsoleLinkDetail }) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const p = props.link.payment;
  const paid = p?.status === 'approved';
  const refunds = useLinkRefunds(props.link.id, paid);
  const [open, setOpen] = useState(false);
  const [done, setDone] = useState<RefundResult | null>(null);
  // After a refund, focus goes to what it did (the Refund button may be gone: everything was given back).
  const doneStatus = useRef<HTMLDivElement>(null);
  const refundedNow = useRef(false);
  const refunded = p?.refunded ?? 0;
  const remaining = p ? remainingCents({ amount: p.amount, refunded }) : 0;
  // The link's money over the deposit and every plan instalment, from the server's read model (decision 0243); the
  // deposit's own figures until it has answered.
  const money = refunds.data?.money ?? { paid: p?.amount ?? 0, refunded, net: (p?.amount ?? 0) - refunded };
  const hasPlanCharges = money.paid !== (p?.amount ?? 0) || !!refunds.data?.refunds.some((r) => r.installment);

  return (
    <section className="card mb-3" aria-labelledby={id} data-testid="money-card">
      <div className="card-body">
        <h2 id={id} className="h5">
          {t('money.card.title')}
        </h2>
        {!p || !paid ? (
          <p className="mb-0">{t('money.card.notPaid')}</p>
        ) : (
          <>
            <p className="mb-2">
              {t('money.card.refundedOf', { refunded: formatMoney(money.refunded), amount: formatMoney(money.paid) })}
              <RefundStateBadge amount={money.paid} refunded={money.refunded} />
            </p>
            {hasPlanCharges && (
              <p className="small mb-2" data-testid="money-card-plan">
                {t('money.card.planMoney', { amount: formatMoney(money.paid), net: formatMoney(money.net) })}
              </p>
            )}
            <div aria-live="polite">
              {done && (
                <div ref={doneStatus} tabIndex={-1} className="alert alert-success py-2" role="status">
                  {done.kind === 'void'
                    ? t('money.refund.doneVoid', { amount: formatMoney(done.amount) })
                    : t('money.refund.doneReturn', { amount: formatMoney(done.amount) })}
                </div>
              )}
            </div>
            {refunds.isPending ? (
              <Loading />
            ) : refunds.error ? (
              <ErrorAlert error={refunds.error} onRetry={() => void refunds.refetch()} />
            ) : refunds.data.refunds.length === 0 ? (
              <p className="small text-secondary">{t('money.card.noRefunds')}</p>
            ) : (
              <ul className="list-unstyled small mb-3">
                {refunds.data.refunds.map((r) => (
                  <li key={r.id} className="border-bottom py-1">
                    {formatDateTime(r.createdAt)} · {t(`money.card.kind.${r.kind}`)} {formatMoney(r.amount)}
                    {r.installment ? ` · ${t('money.card.ofInstallment', r.installment)}` : ''}
                    {r.flaggedAttemptId ? ` (${t('money.card.flagged')})` : ''} · {t(`money.card.status.${r.status}`)}
                    <div className="text-secondary text-break">{r.reason}</div>
                  </li>
                ))}
              </ul>
            )}
            <div className="d-flex flex-wrap gap-2">
              {remaining > 0 && (
                <button type="button" className="btn btn-outline-danger" onClick={() => setOpen(true)}>
                  {t('money.refund.action')}
                </button>
              )}
              <a className="btn btn-outline-primary" href={evidenceUrl(props.link.id, i18n.language)} download>
                {t('money.card.evidence')}
              </a>
            </div>
            <p className="small text-secondary mt-2 mb-0">{t('money.card.evidenceHint')}</p>
            {hasPlanCharges && remaining > 0 && (
              <p className="small text-secondary mt-1 mb-0">{t('money.card.installmentsRefundHint')}</p>
            )}
            <RefundDialog
              show={open}
              target={{
                linkId: props.link.id,
                amount: p.amount,
                refunded,
                cardBrand: p.cardBrand,
                cardLast4: p.cardLast4,
              }}
              onClose={(result) => {
                setOpen(false);
                refundedNow.current = !!result;
                if (result) setDone(result);
              }}
              onExited={() => {
                if (refundedNow.current) doneStatus.current?.focus();
              }}
            />
          </>
        )}
      </div>
    </section>
  );
}
