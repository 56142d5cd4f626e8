/**
 * A plan link's terms on the patient information page (issue 41, item 5; decision 0241): before choosing today's
 * amount the patient sees the quote's total, what is paid today and each charge that follows (date and amount) and
 * the card they go to. Before the deposit the charges are projected from the amount in the field with the plan's
 * shape, as the server projects them (planSchedule); what is charged is the server's, from the amount it records.
 */
import { useId } from 'react';
import {
  cardBrandName,
  dollarsToCents,
  formatUsd,
  planSchedule,
  planScheduleLine,
  type PatientPlan,
} from '@paylink/shared';
import { useTranslation } from '../../i18n';

export function PlanSummary(props: {
  plan: PatientPlan;
  /** Whole dollars in the amount field when they are in range, else null. */
  amountDollars: number | null;
  /** "Deposit" or "Partial payment", as the payment type selector names it. */
  paymentTypeLabel: string;
}) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const { plan } = props;
  const locale = i18n.resolvedLanguage === 'es' ? 'es-US' : 'en-US';
  const totalCents = dollarsToCents(plan.total);
  let todayCents: number | null;
  let charges: { dueOn: string; amountCents: number }[] | null;
  if (!plan.projected) {
    // The deposit is paid: the stored charges still to come.
    todayCents = plan.deposit === null ? null : dollarsToCents(plan.deposit);
    charges = plan.installments
      .filter((i) => i.status === 'scheduled' || i.status === 'notified')
      .map((i) => ({ dueOn: i.dueOn, amountCents: dollarsToCents(i.amount) }));
  } else {
    todayCents = props.amountDollars === null ? null : dollarsToCents(props.amountDollars);
    charges =
      todayCents === null || !plan.shape ? null : planSchedule(plan.shape, Math.max(0, totalCents - todayCents));
  }
  const brand = plan.card ? cardBrandName(plan.card.brand) : '';
  const card =
    !plan.projected && plan.card
      ? t('patientInfo.plan.storedCard', { brand: brand || t('patientInfo.plan.card'), last4: plan.card.last4 })
      : t('patientInfo.plan.depositCard');
  const laterCents = charges?.reduce((sum, c) => sum + c.amountCents, 0) ?? 0;
  return (
    <section className="plan-summary mb-3" aria-labelledby={`${id}-h`} data-testid="plan-summary">
      <h3 id={`${id}-h`} className="h6 mb-2">
        {t('patientInfo.plan.heading')}
      </h3>
      <dl className="plan-totals">
        <div>
          <dt>{t('patientInfo.plan.total')}</dt>
          <dd>{formatUsd(totalCents, locale)}</dd>
        </div>
        <div>
          <dt>{t('patientInfo.plan.today', { type: props.paymentTypeLabel })}</dt>
          <dd>{todayCents === null ? t('patientInfo.plan.notChosen') : formatUsd(todayCents, locale)}</dd>
        </div>
      </dl>
      {charges === null ? (
        <p className="mb-2">{t('patientInfo.plan.enterAmount')}</p>
      ) : charges.length === 0 ? (
        <p className="mb-2">{t('patientInfo.plan.nothingLater')}</p>
      ) : (
        <>
          <p id={`${id}-later`} className="mb-1">
            {t('patientInfo.plan.later', { amount: formatUsd(laterCents, locale), card })}
          </p>
          <ul className="plan-charges" aria-labelledby={`${id}-later`}>
            {charges.map((c) => (
              <li key={c.dueOn}>{planScheduleLine(c, locale)}</li>
            ))}
          </ul>
        </>
      )}
      <p className="form-text mb-0">{t('patientInfo.plan.notice', { days: plan.noticeDays })}</p>
    </section>
  );
}
