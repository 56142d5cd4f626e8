import { useId, type ComponentType } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { buildUrl, call } from '../../shared/api/client';
import { consoleEndpoints, type PaymentReport, type PaymentReportQuery } from '../../shared/api/contract';
import { Pager } from '../../shared/components/pager';
import { TableScroll } from '../../shared/components/table-scroll';
import { PageTitle } from '../../shared/components/page-title';
import { useUrlFilters } from '../../shared/lib/use-url-filters';
import { ErrorAlert, Loading } from '../../shared/components/query-state';
import { formatCard, formatDate, formatDateTime, formatMoney } from '../../shared/lib/format';
import { useCan } from '../../shared/session/use-session';

const PAGE_SIZE = 50;

/**
 * The payments report. The money feature's panel and per-row actions are given by the app shell, which composes
 * features: a feature never imports another (eslint.config.js).
 */
export function PaymentsPage(props: {
  MoneyPanel: ComponentType;
  RowMoney: ComponentType<{ row: PaymentReport['rows'][0] }>;
}) {
  const { MoneyPanel, RowMoney } = props;
  const { t } = useTranslation();
  const can = useCan();
  const id = useId();
  const [params, update] = useUrlFilters();
  const page = Math.max(1, Number(params.get('page') ?? 1) || 1);
  const filters = {
    status: (params.get('status') || undefined) as PaymentReportQuery['status'],
    from: params.get('from') || undefined,
    to: params.get('to') || undefined,
    groupBy: (params.get('groupBy') || 'day') as 'day' | 'week' | 'month',
    q: params.get('q') || undefined,
  };
  const query = { ...filters, limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE };
  const report = useQuery({
    queryKey: ['payments', query],
    queryFn: ({ signal }) => call(consoleEndpoints.paymentReport, { query, signal }),
    placeholderData: keepPreviousData,
  });
  const set = (k: string, v: string) => update({ [k]: v });
  const exportUrl = buildUrl(consoleEndpoints.paymentExport.path, filters);

  return (
    <>
      <PageTitle
        actions={
          can('payments.export') && (
            <a className="btn btn-outline-primary" href={exportUrl} download>
              {t('payments.export')}
            </a>
          )
        }
      >
        {t('payments.title')}
      </PageTitle>
      <MoneyPanel />
      <form
        className="row g-2 align-items-end mb-3"
        aria-label={t('board.filters')}
        onSubmit={(e) => e.preventDefault()}
      >
        <div className="col-6 col-md-3">
          <label htmlFor={`${id}-status`} className="form-label small mb-1">
            {t('payments.status')}
          </label>
          <select
            id={`${id}-status`}
            className="form-select"
            value={filters.status ?? ''}
            onChange={(e) => set('status', e.target.value)}
          >
            <option value="">{t('payments.anyStatus')}</option>
            <option value="approved">{t('payments.approved')}</option>
            <option value="attempted">{t('payments.attempted')}</option>
          </select>
        </div>
        <div className="col-6 col-md-3">
          <label htmlFor={`${id}-from`} className="form-label small mb-1">
            {t('payments.from')}
          </label>
          <input
            id={`${id}-from`}
            type="date"
            className="form-control"
            value={filters.from ?? ''}
            onChange={(e) => set('from', e.target.value)}
          />
        </div>
        <div className="col-6 col-md-3">
          <label htmlFor={`${id}-to`} className="form-label small mb-1">
            {t('payments.to')}
          </label>
          <input
            id={`${id}-to`}
            type="date"
            className="form-control"
            value={filters.to ?? ''}
            onChange={(e) => set('to', e.target.value)}
          />
        </div>
        <div className="col-6 col-md-3">
          <label htmlFor={`${id}-group`} className="form-label small mb-1">
            {t('payments.groupBy')}
          </label>
          <select
            id={`${id}-group`}
            className="form-select"
            value={filters.groupBy}
            onChange={(e) => set('groupBy', e.target.value)}
          >
            <option value="day">{t('payments.day')}</option>
            <option value="week">{t('payments.week')}</option>
            <option value="month">{t('payments.month')}</option>
          </select>
        </div>
      </form>
      {report.isPending ? (
        <Loading />
      ) : report.error && !report.data ? (
        <ErrorAlert error={report.error} onRetry={() => void report.refetch()} />
      ) : report.data ? (
        <>
          <section aria-labelledby={`${id}-totals`} className="mb-4">
            <h2 id={`${id}-totals`} className="h5">
              {t('payments.totals')}{' '}
              <span className="fw-normal">
                · {t('payments.total')}: <strong>{formatMoney(report.data.sum.approvedAmount)}</strong> (
                {report.data.sum.approvedCount}) · <strong>{formatMoney(report.data.sum.netAmount)}</strong>{' '}
                {t('payments.net')}
              </span>
            </h2>
            {report.data.totals.length > 0 && (
              <TableScroll label={t('payments.totals')}>
                <table className="table table-sm bg-white border mb-0">
                  <thead className="table-light">
                    <tr>
                      <th scope="col">{t('payments.period')}</th>
                      <th scope="col" className="text-end">
                        {t('payments.approved')}
                      </th>
                      <th scope="col" className="text-end">
                        {t('payments.attempted')}
                      </th>
                      <th scope="col" className="text-end">
                        {t('payments.netColumn')}
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {report.data.totals.map((p) => (
                      <tr key={p.period}>
                        <th scope="row" className="fw-normal">
                          {formatDate(`${p.period}T12:00:00`)}
                        </th>
                        <td className="text-end">
                          {formatMoney(p.approvedAmount)} ({p.approvedCount})
                        </td>
                        <td className="text-end">
                          {formatMoney(p.attemptedAmount)} ({p.attemptedCount})
                        </td>
                        <td className="text-end">{formatMoney(p.netAmount)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableScroll>
            )}
          </section>
          {report.data.rows.length === 0 ? (
            <p className="alert alert-light border">{t('payments.empty')}</p>
          ) : (
            <>
              <TableScroll className="table-responsive-md" label={t('payments.list')}>
                <table className="table bg-white border stack-table mb-2">
                  <caption className="visually-hidden">{t('payments.list')}</caption>
                  <thead className="table-light">
                    <tr>
                      <th scope="col">{t('payments.patient')}</th>
                      <th scope="col">{t('payments.amount')}</th>
                      <th scope="col">{t('payments.status')}</th>
                      <th scope="col">{t('payments.card')}</th>
                      <th scope="col">{t('payments.date')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {report.data.rows.map((r) => (
                      // A plan's instalments share their link and creation time: the number tells them apart.
                      <tr key={`${r.linkId}-${r.kind}-${r.installment?.n ?? 0}`}>
                        <td data-label={t('payments.patient')}>
                          <Link to={`/links/${r.linkId}`}>
                            {r.firstName} {r.lastName}
                          </Link>
                          {r.payer === 'payor' && r.payorFullName && (
                            <div className="small text-secondary">
                              {t('board.payerPayor', { name: r.payorFullName })}
                            </div>
                          )}
                        </td>
                        <td data-label={t('payments.amount')}>
                          {formatMoney(r.amount)}
                          {r.installment && (
                            <div className="small text-secondary">
                              {t('payments.installment', { n: r.installment.n, count: r.installment.count })}
                            </div>
                          )}
                        </td>
                        <td data-label={t('payments.status')}>
                          {r.status === 'approved'
                            ? t('payments.approved')
                            : r.installment?.status === 'failed'
                              ? t('payments.declined')
                              : t('payments.chosen')}
                          <RowMoney row={r} />
                          {r.failedAttempts > 0 && (
                            <div className="small text-secondary">
                              {t('payments.failedAttempts', { count: r.failedAttempts })}
                            </div>
                          )}
                        </td>
                        <td data-label={t('payments.card')}>
                          {r.cardLast4 ? formatCard(r.cardBrand, r.cardLast4) : '—'}
                        </td>
                        <td data-label={t('payments.date')}>{formatDateTime(r.paidAt ?? r.chosenAt)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableScroll>
              <Pager
                page={page}
                pageSize={PAGE_SIZE}
                total={report.data.total}
                onPage={(p) => set('page', p > 1 ? String(p) : '')}
              />
            </>
          )}
        </>
      ) : null}
    </>
  );
}
