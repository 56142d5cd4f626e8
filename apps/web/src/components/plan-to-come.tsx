/**
 * A returning patient of a paid link whose payment plan still has charges to come (issue 28, decision 0215): after
 * sign-in the link ends on the steps-complete page, which then lists the charges still to come and the card they go
 * on, with the way to change that card. Nothing is shown without a session for this link, for a link without a plan,
 * or when nothing is left to charge.
 */
import { useTranslation } from '../i18n';
import { formatDueDate, usePlan } from '../lib/use-plan';
import { useNavigate } from '../lib/router';
import { useAppSelector } from '../store/hooks';
import { isSessionValid } from '../store/auth-slice';
import { UPDATE_CARD_PATH } from '../lib/card-intent';

export function PlanToCome() {
  const auth = useAppSelector((s) => s.auth);
  const linkId = useAppSelector((s) => s.link.link_id) ?? '';
  if (!linkId || !isSessionValid(auth)) return null;
  return <PlanSchedule linkId={linkId} />;
}

function PlanSchedule(props: { linkId: string }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const plan = usePlan(props.linkId);
  if (plan.status !== 'ready') return null;
  const lines = plan.plan.scheduleLines[i18n.resolvedLanguage === 'es' ? 'es' : 'en'];
  if (lines.length === 0) return null;
  const card = plan.plan.card;
  return (
    <section className="card mt-3" aria-labelledby="plan-to-come-h" data-testid="plan-to-come">
      <div className="card-body">
        <h2 id="plan-to-come-h" className="h5">
          {t('planToCome.heading')}
        </h2>
        <ul className="mb-2">
          {lines.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
        {card && <p className="mb-2">{t('planToCome.card', { last4: card.last4 })}</p>}
        {card && plan.plan.cardExpiresBefore && (
          <div className="alert alert-warning mb-2" data-testid="plan-card-expiring">
            {t('planToCome.expiring', {
              last4: card.last4,
              date: formatDueDate(plan.plan.cardExpiresBefore, i18n.resolvedLanguage === 'es' ? 'es-US' : 'en-US'),
            })}
          </div>
        )}
        <p className="small text-body-secondary">{t('planToCome.notice', { days: plan.plan.noticeDays })}</p>
        <a
          href={UPDATE_CARD_PATH}
          className="btn btn-outline-primary"
          onClick={(e) => {
            e.preventDefault();
            void navigate(UPDATE_CARD_PATH);
          }}
        >
          {t('planToCome.changeCard')}
        </a>
      </div>
    </section>
  );
}
