import { useTranslation } from 'react-i18next';

export type RefundState = 'none' | 'partially_refunded' | 'refunded';

function refundStateOf(amount: number, refunded: number): RefundState {
  if (refunded <= 0) return 'none';
  return refunded >= amount ? 'refunded' : 'partially_refunded';
}

/** "Refunded" / "Partially refunded" next to a payment; nothing when nothing was given back. */
export function RefundStateBadge(props: { amount: number; refunded: number }) {
  const { t } = useTranslation();
  const state = refundStateOf(props.amount, props.refunded);
  if (state === 'none') return null;
  return (
    <span
      className={`badge ${state === 'refunded' ? 'text-bg-secondary' : 'text-bg-warning'} ms-1`}
      data-refund-state={state}
    >
      {t(`money.state.${state}`)}
    </span>
  );
}
