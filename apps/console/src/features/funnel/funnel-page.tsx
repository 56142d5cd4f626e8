import { useId } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { call } from '../../shared/api/client';
import { consoleEndpoints, type FunnelResult } from '../../shared/api/contract';
import { useStepLabel } from '../../shared/components/link-labels';
import { TableScroll } from '../../shared/components/table-scroll';
import { PageTitle } from '../../shared/components/page-title';
import { useUrlFilters } from '../../shared/lib/use-url-filters';
import { ErrorAlert, Loading } from '../../shared/components/query-state';
import { formatDuration, formatMoney, formatRelative } from '../../shared/lib/format';

type Stage = FunnelResult['stages'][number];

export function FunnelPage() {
  const { t } = useTranslation();
  const id = useId();
  const [params, update] = useUrlFilters();
  const query = {
    from: params.get('from') || undefined,
    to: params.get('to') || undefined,
    coordinatorId: params.get('coordinator') || undefined,
  };
  const funnel = useQuery({
    queryKey: ['funnel', query],
    queryFn: ({ signal }) => call(consoleEndpoints.funnel, { query, signal }),
    placeholderData: keepPreviousData,
  });
  const set = (k: string, v: string) => update({ [k]: v });
  const data = funnel.data;
  return (
    <>
      <PageTitle>{t('funnel.title')}</PageTitle>
      <p>{t('funnel.intro')}</p>
      <form
        className="row g-2 align-items-end mb-3"
        aria-label={t('board.filters')}
        onSubmit={(e) => e.preventDefault()}
      >
        <div className="col-6 col-md-3">
          <label htmlFor={`${id}-from`} className="form-label small mb-1">
            {t('funnel.from')}
          </label>
          <input
            id={`${id}-from`}
            type="date"
            className="form-control"
            value={query.from ?? data?.from ?? ''}
            onChange={(e) => set('from', e.target.value)}
          />
        </div>
        <div className="col-6 col-md-3">
          <label htmlFor={`${id}-to`} className="form-label small mb-1">
            {t('funnel.to')}
          </label>
          <input
            id={`${id}-to`}
            type="date"
            className="form-control"
            value={query.to ?? data?.to ?? ''}
            onChange={(e) => set('to', e.target.value)}
          />
        </div>
        <div className="col-12 col-md-3">
          <label htmlFor={`${id}-coordinator`} className="form-label small mb-1">
            {t('funnel.coordinator')}
          </label>
          <select
            id={`${id}-coordinator`}
            className="form-select"
            value={query.coordinatorId ?? ''}
            onChange={(e) => set('coordinator', e.target.value)}
          >
            <option value="">{t('funnel.everyone')}</option>
            <option value="me">{t('board.me')}</option>
            {data?.byCoordinator
              .filter((c) => c.coordinator)
              .map((c) => (
                <option key={c.coordinator!.id} value={c.coordinator!.id}>
                  {c.coordinator!.name || c.coordinator!.email}
                </option>
              ))}
          </select>
        </div>
      </form>
      {funnel.isPending ? (
        <Loading />
      ) : funnel.error && !data ? (
        <ErrorAlert error={funnel.error} onRetry={() => void funnel.refetch()} />
      ) : data ? (
        <>
          {(data.stages[0]?.count ?? 0) === 0 ? (
            <p className="alert alert-light border">{t('funnel.empty')}</p>
          ) : (
            <StagesTable stages={data.stages} caption={t('funnel.title')} />
          )}
          {/* Deposits, balance payments and instalments less refunds: the Payments screen's "kept" (decision 0243). */}
          <p className="mt-3 mb-0" data-testid="funnel-collected">
            {t('funnel.collected', { amount: formatMoney(data.collected.amount), count: data.collected.count })}
          </p>
          {data.planMoney.plans > 0 && <PlanMoney money={data.planMoney} />}
          <Stalled data={data} />
          {data.byCoordinator.length > 1 && !query.coordinatorId && (
            <section className="mt-4">
              <h2 className="h5">{t('funnel.byCoordinator')}</h2>
              {data.byCoordinator.map((c) => (
                <details key={c.coordinator?.id ?? 'none'} className="mb-2">
                  <summary>
                    {c.coordinator ? c.coordinator.name || c.coordinator.email : t('funnel.noCoordinator')} ·{' '}
                    {c.stages[0]?.count ?? 0}
                  </summary>
                  <StagesTable stages={c.stages} caption={c.coordinator?.name ?? t('funnel.noCoordinator')} />
                </details>
              ))}
            </section>
          )}
        </>
      ) : null}
    </>
  );
}

function StagesTable(props: { stages: Stage[]; caption: string }) {
  const { t } = useTranslation();
  const stageLabel = useStageLabel();
  const max = Math.max(1, ...props.stages.map((s) => s.count));
  return (
    <TableScroll label={props.caption}>
      <table className="table bg-white border align-middle">
        <caption className="visually-hidden">{props.caption}</caption>
        <thead className="table-light">
          <tr>
            <th scope="col">{t('funnel.stage')}</th>
            <th scope="col" className="text-end">
              {t('funnel.count')}
            </th>
            <th scope="col" className="w-25 d-none d-md-table-cell">
              <span className="visually-hidden">{t('funnel.bar')}</span>
            </th>
            <th scope="col" className="text-end">
              {t('funnel.conversion')}
            </th>
            <th scope="col" className="text-end">
              {t('funnel.medianTime')}
            </th>
          </tr>
        </thead>
        <tbody>
          {props.stages.map((s) => (
            <tr key={s.key} data-stage={s.key}>
              <th scope="row" className="fw-normal">
                {stageLabel(s.key)}
              </th>
              <td className="text-end">{s.count}</td>
              <td className="d-none d-md-table-cell" aria-hidden="true">
                <div className="funnel-bar" style={{ width: `${(s.count / max) * 100}%` }} />
              </td>
              <td className="text-end">{s.conversion === null ? '—' : `${Math.round(s.conversion * 100)}%`}</td>
              <td className="text-end">{formatDuration(s.medianSeconds)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

function useStageLabel() {
  const { t, i18n } = useTranslation();
  const stepLabel = useStepLabel();
  return (key: string) => (i18n.exists(`funnel.stages.${key}`) ? t(`funnel.stages.${key}`) : stepLabel(key));
}

function Stalled(props: { data: FunnelResult }) {
  const { t } = useTranslation();
  const stageLabel = useStageLabel();
  return (
    <section className="mt-4">
      <h2 className="h5">{t('funnel.stalled')}</h2>
      <p className="small text-secondary">{t('funnel.stalledHelp')}</p>
      {props.data.stalled.length === 0 ? (
        <p>{t('funnel.noStalled')}</p>
      ) : (
        <ul className="list-group">
          {props.data.stalled.map((g) => (
            <li key={g.stage} className="list-group-item">
              <div className="fw-semibold">
                {stageLabel(g.stage)} · {g.count}
              </div>
              <ul className="list-inline mb-0 small">
                {g.links.map((l) => (
                  <li key={l.id} className="list-inline-item">
                    <Link to={`/links/${l.id}`}>
                      {l.firstName} {l.lastName}
                    </Link>{' '}
                    <span className="text-secondary">({formatRelative(l.lastActivityAt)})</span>
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The plans' money of these links (issue 28): collected, scheduled and failed instalments. */
function PlanMoney(props: { money: FunnelResult['planMoney'] }) {
  const { t } = useTranslation();
  const id = useId();
  const { money } = props;
  const value = (m: { count: number; amount: number }) =>
    t('planConsole.funnel.value', { amount: formatMoney(m.amount), count: m.count });
  return (
    <section className="mt-4" aria-labelledby={id} data-testid="funnel-plan-money">
      <h2 id={id} className="h5">
        {t('planConsole.funnel.title')}
      </h2>
      <p className="small text-secondary">{t('planConsole.funnel.help')}</p>
      <dl className="row mb-0">
        <dt className="col-6 col-md-3">{t('planConsole.funnel.plans')}</dt>
        <dd className="col-6 col-md-9">{money.plans}</dd>
        <dt className="col-6 col-md-3">{t('planConsole.funnel.collected')}</dt>
        <dd className="col-6 col-md-9">{value(money.collected)}</dd>
        <dt className="col-6 col-md-3">{t('planConsole.funnel.scheduled')}</dt>
        <dd className="col-6 col-md-9">{value(money.scheduled)}</dd>
        <dt className="col-6 col-md-3">{t('planConsole.funnel.failed')}</dt>
        <dd className="col-6 col-md-9">{value(money.failed)}</dd>
      </dl>
    </section>
  );
}
