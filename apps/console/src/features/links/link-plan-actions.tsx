import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { addDays, PLAN_NOTICE_DAYS, type PlanView } from '../../shared/api/contract';
import { ConfirmDialog } from '../../shared/components/confirm-dialog';
import { useErrorMessage } from '../../shared/components/query-state';
import { formatDay, formatMoney } from '../../shared/lib/format';
import { useCan } from '../../shared/session/use-session';
import { runPlanAction, type PlanAction } from './link-plan-actions-api';

type Open = null | { kind: 'pause' | 'resume' | 'cancel' } | { kind: 'reschedule' | 'charge' | 'refund'; n: number };
type Installment = PlanView['installments'][number];

const OPEN = new Set(['scheduled', 'notified', 'failed']);
const isOpen = (i: Installment) => OPEN.has(i.status);
/** Today in the browser (the server checks against the practice's calendar and says so when they differ). */
const today = () => {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

/**
 * The practice's actions on a plan (decision 0210), each behind a confirmation: the plan's own (pause, resume,
 * cancel the rest; every role) and one instalment's (move it; charge it now and refund it: billing and admin).
 */
export function usePlanActions(linkId: string, plan: PlanView) {
  const { t } = useTranslation();
  const can = useCan();
  const queryClient = useQueryClient();
  const errorMessage = useErrorMessage();
  const [open, setOpen] = useState<Open>(null);
  const [done, setDone] = useState<string | null>(null);
  const [dueOn, setDueOn] = useState('');
  const [amount, setAmount] = useState('');
  const dateId = useId();
  const amountId = useId();
  const run = useMutation({
    mutationFn: (a: PlanAction) => runPlanAction(linkId, a),
    onSuccess: (r, a) => {
      setOpen(null);
      setDone(
        a.kind === 'charge' && 'outcome' in r
          ? t('plans.actions.done.charge', { outcome: t(`plans.actions.outcome.${r.outcome}`) })
          : t(`plans.actions.done.${a.kind}`),
      );
      void queryClient.invalidateQueries({ queryKey: ['link', linkId] });
    },
  });
  const show = (o: Open) => {
    run.reset();
    setDone(null);
    setDueOn('');
    setAmount('');
    setOpen(o);
  };
  const manage = can('plans.manage') && !plan.projected;
  const money = can('payments.refund') && !plan.projected;
  const running = plan.status === 'active' || plan.status === 'paused';
  const openSum = plan.installments.filter(isOpen).reduce((s, i) => s + Math.round(i.amount * 100), 0) / 100;
  const selected = open && 'n' in open ? plan.installments.find((i) => i.n === open.n) : undefined;
  const earliest = addDays(today(), PLAN_NOTICE_DAYS);
  const error = run.error ? errorMessage(run.error) : null;
  const common = { busy: run.isPending, error, onCancel: () => setOpen(null) };

  const planButtons =
    manage && running ? (
      <div className="d-flex flex-wrap gap-2 mt-3">
        {plan.status === 'active' ? (
          <button type="button" className="btn btn-sm btn-outline-secondary" onClick={() => show({ kind: 'pause' })}>
            {t('plans.actions.pause')}
          </button>
        ) : (
          <button type="button" className="btn btn-sm btn-outline-primary" onClick={() => show({ kind: 'resume' })}>
            {t('plans.actions.resume')}
          </button>
        )}
        <button type="button" className="btn btn-sm btn-outline-danger" onClick={() => show({ kind: 'cancel' })}>
          {t('plans.actions.cancel')}
        </button>
      </div>
    ) : null;

  const rowButtons = (i: Installment) => (
    <div className="d-flex flex-wrap gap-1">
      {manage && running && isOpen(i) && !i.chargeInProgress && (
        <button
          type="button"
          className="btn btn-sm btn-link p-0 me-2"
          aria-label={t('plans.actions.rescheduleLabel', { n: i.n })}
          onClick={() => show({ kind: 'reschedule', n: i.n })}
        >
          {t('plans.actions.reschedule')}
        </button>
      )}
      {money && plan.status === 'active' && isOpen(i) && !i.chargeInProgress && (
        <button
          type="button"
          className="btn btn-sm btn-link p-0 me-2"
          aria-label={t('plans.actions.chargeLabel', { n: i.n })}
          onClick={() => show({ kind: 'charge', n: i.n })}
        >
          {t('plans.actions.charge')}
        </button>
      )}
      {money && i.status === 'paid' && (
        <button
          type="button"
          className="btn btn-sm btn-link p-0"
          aria-label={t('plans.actions.refundLabel', { n: i.n })}
          onClick={() => show({ kind: 'refund', n: i.n })}
        >
          {t('plans.actions.refund')}
        </button>
      )}
    </div>
  );

  const amountLeft = selected
    ? (Math.round(selected.amount * 100) - Math.round((selected.refunded ?? 0) * 100)) / 100
    : 0;
  const dialogs = (
    <>
      <ConfirmDialog
        show={open?.kind === 'pause'}
        title={t('plans.actions.pauseTitle')}
        body={t('plans.actions.pauseBody')}
        confirmLabel={t('plans.actions.pause')}
        {...common}
        onConfirm={() => run.mutate({ kind: 'pause' })}
      />
      <ConfirmDialog
        show={open?.kind === 'resume'}
        title={t('plans.actions.resumeTitle')}
        body={t('plans.actions.resumeBody')}
        confirmLabel={t('plans.actions.resume')}
        {...common}
        onConfirm={() => run.mutate({ kind: 'resume' })}
      />
      <ConfirmDialog
        show={open?.kind === 'cancel'}
        title={t('plans.actions.cancelTitle')}
        body={t('plans.actions.cancelBody', { amount: formatMoney(openSum) })}
        confirmLabel={t('plans.actions.cancelConfirm')}
        danger
        askReason
        {...common}
        onConfirm={(reason) => run.mutate({ kind: 'cancel', reason })}
      />
      <ConfirmDialog
        show={open?.kind === 'reschedule'}
        title={t('plans.actions.rescheduleTitle', { n: selected?.n })}
        body={t('plans.actions.rescheduleBody', { earliest: formatDay(earliest) })}
        confirmLabel={t('plans.actions.rescheduleConfirm')}
        {...common}
        onConfirm={() => selected && run.mutate({ kind: 'reschedule', n: selected.n, dueOn })}
      >
        <label htmlFor={dateId} className="form-label">
          {t('plans.actions.newDate')}
        </label>
        <input
          id={dateId}
          type="date"
          className="form-control"
          min={earliest}
          required
          value={dueOn}
          onChange={(e) => setDueOn(e.target.value)}
        />
      </ConfirmDialog>
      <ConfirmDialog
        show={open?.kind === 'charge'}
        title={t('plans.actions.chargeTitle', { n: selected?.n })}
        body={t('plans.actions.chargeBody', { amount: formatMoney(selected?.amount) })}
        confirmLabel={t('plans.actions.chargeConfirm', { amount: formatMoney(selected?.amount) })}
        danger
        {...common}
        onConfirm={() => selected && run.mutate({ kind: 'charge', n: selected.n })}
      />
      <ConfirmDialog
        show={open?.kind === 'refund'}
        title={t('plans.actions.refundTitle', { n: selected?.n })}
        body={t('plans.actions.refundBody')}
        confirmLabel={t('plans.actions.refundConfirm')}
        danger
        askReason
        {...common}
        onConfirm={(reason) =>
          selected &&
          run.mutate({
            kind: 'refund',
            n: selected.n,
            reason,
            amount: amount.trim() === '' ? undefined : Number(amount),
          })
        }
      >
        <label htmlFor={amountId} className="form-label">
          {t('plans.actions.refundAmount')}
        </label>
        <input
          id={amountId}
          type="text"
          inputMode="decimal"
          className="form-control mb-1"
          aria-describedby={`${amountId}-hint`}
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
        />
        <p id={`${amountId}-hint`} className="form-text mb-3">
          {t('plans.actions.refundAmountHint', { amount: formatMoney(amountLeft) })}
        </p>
      </ConfirmDialog>
    </>
  );

  const status = (
    <div aria-live="polite">
      {done && (
        <div className="alert alert-success mt-2 mb-0" role="status">
          {done}
        </div>
      )}
    </div>
  );
  return { planButtons, rowButtons, showRowActions: manage || money, dialogs, status };
}
