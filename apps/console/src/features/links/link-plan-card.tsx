import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { ConsoleLinkDetail, PlanView } from '../../shared/api/contract';
import { cardBrandName, formatDay, formatMoney } from '../../shared/lib/format';
import { usePlanActions } from './link-plan-actions';

type Actions = ReturnType<typeof usePlanActions>;
import { InstallmentHistory } from './installment-history';

/**
 * The link's payment plan: the money, each instalment with its date and status, and the card kept for them. Before
 * the deposit the instalments are the server's projection for balance = total, and the card says so first.
 */
type History = ConsoleLinkDetail['planHistory'];

export function LinkPlanCard(props: {
  plan: PlanView;
  /** With the link's id, the practice's actions too. */ linkId?: string;
  history?: History;
}) {
  return props.linkId ? (
    <CardWithActions plan={props.plan} linkId={props.linkId} history={props.history} />
  ) : (
    <PlanCard plan={props.plan} history={props.history} />
  );
}

function CardWithActions(props: { plan: PlanView; linkId: string; history?: History }) {
  const actions = usePlanActions(props.linkId, props.plan);
  return <PlanCard plan={props.plan} actions={actions} history={props.history} />;
}

function PlanCard(props: { plan: PlanView; actions?: Actions; history?: History }) {
  const { t } = useTranslation();
  const id = useId();
  const { plan, actions } = props;
  const rowActions = !!actions?.showRowActions;
  return (
    <section className="card mb-3" aria-labelledby={id} data-testid="plan-card">
      <div className="card-body">
        <h2 id={id} className="h5">
          {t('plans.card.title')}
        </h2>
        {plan.projected && (
          <p className="alert alert-info py-2 small" role="note">
            {t('plans.card.projected')}
          </p>
        )}
        <dl className="row small mb-2">
          <dt className="col-5">{t('plans.card.status')}</dt>
          <dd className="col-7">{t(`plans.status.${plan.status}`)}</dd>
          <dt className="col-5">{t('plans.card.total')}</dt>
          <dd className="col-7">{formatMoney(plan.total)}</dd>
          <dt className="col-5">{t('plans.card.deposit')}</dt>
          <dd className="col-7">
            {plan.deposit === null ? t('plans.card.depositPending') : formatMoney(plan.deposit)}
          </dd>
          <dt className="col-5">{t('plans.card.balance')}</dt>
          <dd className="col-7">{formatMoney(plan.balance)}</dd>
          <dt className="col-5">{t('plans.card.cardKept')}</dt>
          <dd className="col-7">
            {plan.card?.last4 ? (
              <>
                {t('plans.card.cardKeptValue', { brand: cardBrandName(plan.card.brand), last4: plan.card.last4 })}
                {plan.card.expMonth && plan.card.expYear
                  ? ` (${t('plans.card.cardExpires', {
                      month: String(plan.card.expMonth).padStart(2, '0'),
                      year: plan.card.expYear,
                    })})`
                  : ''}
              </>
            ) : (
              t('plans.card.noCard')
            )}
          </dd>
        </dl>
        {plan.installments.length === 0 ? (
          <p className="small mb-0">{t('plans.card.noInstallments')}</p>
        ) : (
          <div className="table-responsive">
            <table className="table table-sm small mb-0">
              <caption className="caption-top">
                {plan.projected ? t('plans.card.captionProjected') : t('plans.card.caption')}
              </caption>
              <thead>
                <tr>
                  <th scope="col">{t('plans.card.n')}</th>
                  <th scope="col">{t('plans.card.dueOn')}</th>
                  <th scope="col" className="text-end">
                    {t('plans.card.amount')}
                  </th>
                  <th scope="col">{t('plans.card.installmentStatus')}</th>
                  {rowActions && <th scope="col">{t('plans.actions.column')}</th>}
                </tr>
              </thead>
              <tbody>
                {plan.installments.map((i) => (
                  <tr key={i.n}>
                    <td>{i.n}</td>
                    <td>{formatDay(i.dueOn)}</td>
                    <td className="text-end">{formatMoney(i.amount)}</td>
                    <td>
                      {t(`plans.installmentStatus.${i.status}`)}
                      {i.chargeInProgress ? (
                        // Instead of a Charge now that would answer 409 (decision 0237): a plain word, not a button.
                        <div className="text-warning-emphasis">{t('plans.card.chargeInProgress')}</div>
                      ) : null}
                      {i.refunded ? (
                        <div className="text-secondary">
                          {t('plans.actions.refunded', { amount: formatMoney(i.refunded) })}
                        </div>
                      ) : null}
                    </td>
                    {rowActions && <td>{actions!.rowButtons(i)}</td>}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {actions?.planButtons}
        {actions?.status}
        {actions?.dialogs}
        <InstallmentHistory history={props.history ?? []} />
      </div>
    </section>
  );
}
