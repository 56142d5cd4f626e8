import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { UpcomingCharge } from '../../shared/api/contract';
import { PageTitle } from '../../shared/components/page-title';
import { ErrorAlert, Loading } from '../../shared/components/query-state';
import { cardBrandName, formatDateTime, formatDay, formatMoney } from '../../shared/lib/format';
import { useUpcomingCharges } from './plans-api';

const DAY_CHOICES = [30, 60, 90] as const;

/** The billing office's look ahead: what the scheduler will charge, and which cards will not make it. */
export function UpcomingChargesPage() {
  const { t } = useTranslation();
  const daysId = useId();
  const [days, setDays] = useState<number>(30);
  const upcoming = useUpcomingCharges(days);

  return (
    <>
      <PageTitle>{t('plans.upcoming.title')}</PageTitle>
      <div className="mb-3 d-flex align-items-center gap-2">
        <label htmlFor={daysId} className="form-label mb-0">
          {t('plans.upcoming.days')}
        </label>
        <select
          id={daysId}
          className="form-select w-auto"
          value={days}
          onChange={(e) => setDays(Number(e.target.value))}
        >
          {DAY_CHOICES.map((d) => (
            <option key={d} value={d}>
              {t('plans.upcoming.daysOption', { count: d })}
            </option>
          ))}
        </select>
      </div>
      {upcoming.isPending ? (
        <Loading />
      ) : upcoming.error ? (
        <ErrorAlert error={upcoming.error} onRetry={() => void upcoming.refetch()} />
      ) : (
        <>
          <p className="text-secondary">
            {t('plans.upcoming.intro', { from: formatDay(upcoming.data.from), to: formatDay(upcoming.data.to) })}
          </p>
          {upcoming.data.charges.length === 0 ? (
            <p>{t('plans.upcoming.empty', { count: days })}</p>
          ) : (
            <div className="table-responsive">
              <table className="table table-sm align-middle">
                <caption className="caption-top">{t('plans.upcoming.caption')}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t('plans.upcoming.dueOn')}</th>
                    <th scope="col">{t('plans.upcoming.patient')}</th>
                    <th scope="col">{t('plans.upcoming.link')}</th>
                    <th scope="col" className="text-end">
                      {t('plans.upcoming.amount')}
                    </th>
                    <th scope="col">{t('plans.upcoming.status')}</th>
                    <th scope="col">{t('plans.upcoming.card')}</th>
                    <th scope="col">{t('plans.upcoming.lastFailure')}</th>
                  </tr>
                </thead>
                <tbody>
                  {upcoming.data.charges.map((c) => (
                    <ChargeRow key={`${c.linkId}-${c.n}`} charge={c} />
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}
    </>
  );
}

function ChargeRow(props: { charge: UpcomingCharge }) {
  const { t } = useTranslation();
  const c = props.charge;
  return (
    <tr data-testid="upcoming-charge">
      <td>{formatDay(c.dueOn)}</td>
      <td>{`${c.firstName} ${c.lastName}`}</td>
      <td>
        <Link to={`/links/${c.linkId}`}>{c.linkId}</Link>
        {c.count > 1 && (
          <div className="small text-secondary">{t('plans.upcoming.installmentOf', { n: c.n, count: c.count })}</div>
        )}
      </td>
      <td className="text-end">{formatMoney(c.amount)}</td>
      <td>{t(`plans.installmentStatus.${c.status}`)}</td>
      <td>
        {c.cardLast4
          ? `${cardBrandName(c.cardBrand)} ${t('plans.upcoming.cardEnding', { last4: c.cardLast4 })}`.trim()
          : t('plans.upcoming.noCard')}
        {c.cardExpiresBeforeDue && (
          <div>
            <span className="badge text-bg-warning">{t('plans.upcoming.expiresBefore')}</span>
          </div>
        )}
      </td>
      <td>
        {c.lastFailure ?? '—'}
        {c.nextAttemptAt && (
          <div className="small text-secondary">
            {t('plans.upcoming.retryAt', { at: formatDateTime(c.nextAttemptAt) })}
          </div>
        )}
        {c.status === 'failed' && <div className="small text-danger">{t('plans.upcoming.noMoreTries')}</div>}
      </td>
    </tr>
  );
}
