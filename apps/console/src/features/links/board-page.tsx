import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { BoardQuery, BoardRow } from '../../shared/api/contract';
import { TableScroll } from '../../shared/components/table-scroll';
import { PageTitle } from '../../shared/components/page-title';
import { useUrlFilters } from '../../shared/lib/use-url-filters';
import { ErrorAlert, Loading } from '../../shared/components/query-state';
import { StateBadge, useStepLabel } from '../../shared/components/link-labels';
import { Pager } from '../../shared/components/pager';
import { formatCard, formatDate, formatMoney, formatPhone, formatRelative } from '../../shared/lib/format';
import { useCan, useSession } from '../../shared/session/use-session';
import { BoardAnnouncer } from './board-announcer';
import { useBoard, useLiveUpdates } from './board-api';
import { useCoordinators } from './coordinators-api';

const PAGE_SIZE = 25;
const STATES = ['active', 'expired', 'cancelled', 'completed'] as const;
const STEPS = ['not_started', 'patientInfo', 'invoice', 'patientId', 'payorId', 'contract', 'payment', 'done'] as const;

/** The board's filters, from the address (useUrlFilters). */
function useBoardQuery(): [BoardQuery & { page: number }, (patch: Record<string, string | null>) => void] {
  const [params, update] = useUrlFilters();
  const page = Math.max(1, Number(params.get('page') ?? 1) || 1);
  const query = {
    q: params.get('q') || undefined,
    status: params.get('status') || undefined,
    step: params.get('step') || undefined,
    createdFrom: params.get('from') || undefined,
    createdTo: params.get('to') || undefined,
    coordinatorId: params.get('coordinator') || undefined,
    limit: PAGE_SIZE,
    offset: (page - 1) * PAGE_SIZE,
    page,
  };
  return [query, update];
}

export function BoardPage() {
  const { t } = useTranslation();
  const can = useCan();
  const [{ page, ...query }, update] = useBoardQuery();
  const board = useBoard(query);
  useLiveUpdates();
  const hasFilters = !!(
    query.q ||
    query.status ||
    query.step ||
    query.createdFrom ||
    query.createdTo ||
    query.coordinatorId
  );

  return (
    <>
      <PageTitle
        actions={
          can('links.create') && (
            <Link to="/links/new" className="btn btn-primary">
              {t('board.newLink')}
            </Link>
          )
        }
      >
        {t('board.title')}
      </PageTitle>
      <Filters query={query} update={update} hasFilters={hasFilters} />
      <p className="small text-secondary mb-2" aria-live="polite">
        {board.data ? `${t('board.results', { count: board.data.total })} · ` : ''}
        {t('board.live')}
      </p>
      <BoardAnnouncer rows={board.data?.rows} />
      {board.isPending ? (
        <Loading />
      ) : board.error && !board.data ? (
        <ErrorAlert error={board.error} onRetry={() => void board.refetch()} />
      ) : board.data && board.data.rows.length === 0 ? (
        <p className="alert alert-light border">{hasFilters ? t('board.empty') : t('board.emptyAll')}</p>
      ) : board.data ? (
        <>
          <BoardTable rows={board.data.rows} />
          <Pager
            page={page}
            pageSize={PAGE_SIZE}
            total={board.data.total}
            onPage={(p) => update({ page: p > 1 ? String(p) : null })}
          />
        </>
      ) : null}
    </>
  );
}

function Filters(props: {
  query: BoardQuery;
  update: (patch: Record<string, string | null>) => void;
  hasFilters: boolean;
}) {
  const { t } = useTranslation();
  const coordinators = useCoordinators();
  const { data: session } = useSession();
  const stepLabel = useStepLabel();
  const id = useId();
  const [q, setQ] = useState(props.query.q ?? '');
  const { update } = props;
  const current = props.query.q ?? '';
  // Search as the coordinator types (debounced), not on every key.
  useEffect(() => {
    if (q.trim() === current) return;
    const timer = window.setTimeout(() => update({ q: q.trim() || null }), 300);
    return () => window.clearTimeout(timer);
  }, [q, current, update]);

  return (
    <form
      className="row g-2 align-items-end mb-3"
      role="search"
      aria-label={t('board.filters')}
      onSubmit={(e) => {
        e.preventDefault();
        update({ q: q.trim() || null });
      }}
    >
      <div className="col-12 col-lg-6">
        <label htmlFor={`${id}-q`} className="form-label small mb-1">
          {t('board.search')}
        </label>
        <input
          id={`${id}-q`}
          type="search"
          className="form-control"
          placeholder={t('board.searchHint')}
          value={q}
          onChange={(e) => setQ(e.target.value)}
        />
      </div>
      <div className="col-6 col-md-3 col-lg-2">
        <label htmlFor={`${id}-state`} className="form-label small mb-1">
          {t('board.state')}
        </label>
        <select
          id={`${id}-state`}
          className="form-select"
          value={String(props.query.status ?? '')}
          onChange={(e) => update({ status: e.target.value || null })}
        >
          <option value="">{t('board.anyState')}</option>
          {STATES.map((s) => (
            <option key={s} value={s}>
              {t(`states.${s}`)}
            </option>
          ))}
        </select>
      </div>
      <div className="col-6 col-md-3 col-lg-2">
        <label htmlFor={`${id}-step`} className="form-label small mb-1">
          {t('board.step')}
        </label>
        <select
          id={`${id}-step`}
          className="form-select"
          value={String(props.query.step ?? '')}
          onChange={(e) => update({ step: e.target.value || null })}
        >
          <option value="">{t('board.anyStep')}</option>
          {STEPS.map((s) => (
            <option key={s} value={s}>
              {stepLabel(s)}
            </option>
          ))}
        </select>
      </div>
      <div className="col-6 col-md-3 col-lg-2">
        <label htmlFor={`${id}-coordinator`} className="form-label small mb-1">
          {t('board.coordinator')}
        </label>
        <select
          id={`${id}-coordinator`}
          className="form-select"
          value={props.query.coordinatorId ?? ''}
          onChange={(e) => update({ coordinator: e.target.value || null })}
        >
          <option value="">{t('board.anyCoordinator')}</option>
          <option value="me">{t('board.me')}</option>
          {coordinators.data?.coordinators
            .filter((c) => c.id !== session?.user.id)
            .map((c) => (
              <option key={c.id} value={c.id}>
                {c.name || c.email}
              </option>
            ))}
        </select>
      </div>
      <div className="col-6 col-md-3 col-lg-2">
        <label htmlFor={`${id}-from`} className="form-label small mb-1">
          {t('board.from')}
        </label>
        <input
          id={`${id}-from`}
          type="date"
          className="form-control"
          value={props.query.createdFrom ?? ''}
          onChange={(e) => update({ from: e.target.value || null })}
        />
      </div>
      <div className="col-6 col-md-3 col-lg-2">
        <label htmlFor={`${id}-to`} className="form-label small mb-1">
          {t('board.to')}
        </label>
        <input
          id={`${id}-to`}
          type="date"
          className="form-control"
          value={props.query.createdTo ?? ''}
          onChange={(e) => update({ to: e.target.value || null })}
        />
      </div>
      {props.hasFilters && (
        <div className="col-6 col-md-3 col-lg-2">
          <button
            type="button"
            className="btn btn-outline-secondary w-100"
            onClick={() => {
              setQ('');
              update({ q: null, status: null, step: null, from: null, to: null, coordinator: null });
            }}
          >
            {t('board.clear')}
          </button>
        </div>
      )}
    </form>
  );
}

function BoardTable(props: { rows: BoardRow[] }) {
  const { t } = useTranslation();
  const stepLabel = useStepLabel();
  return (
    <TableScroll className="table-responsive-md" label={t('board.caption')}>
      <table className="table table-hover bg-white border link-table stack-table mb-2">
        <caption className="visually-hidden">{t('board.caption')}</caption>
        <thead className="table-light">
          <tr>
            <th scope="col">{t('board.patient')}</th>
            <th scope="col">{t('board.amount')}</th>
            <th scope="col">{t('board.payer')}</th>
            <th scope="col">{t('board.progress')}</th>
            <th scope="col">{t('board.state')}</th>
            <th scope="col">{t('board.payment')}</th>
            <th scope="col">{t('board.created')}</th>
          </tr>
        </thead>
        <tbody>
          {props.rows.map((r) => (
            <tr key={r.id} data-link-id={r.id}>
              <td data-label={t('board.patient')}>
                <div>
                  <Link to={`/links/${r.id}`} className="fw-semibold">
                    {r.firstName} {r.lastName}
                  </Link>
                  <div className="small text-secondary">{formatPhone(r.phone) || r.email}</div>
                </div>
              </td>
              <td data-label={t('board.amount')}>{formatMoney(r.amount)}</td>
              <td data-label={t('board.payer')}>
                {r.payer === 'payor'
                  ? t('board.payerPayor', { name: r.payorName ?? '' })
                  : r.payer === 'patient'
                    ? t('board.payerPatient')
                    : '—'}
              </td>
              <td data-label={t('board.progress')}>
                <div>
                  <span className="progress-label">
                    {r.progress.reached === 'not_started' || r.progress.reached === 'done'
                      ? stepLabel(r.progress.reached)
                      : t('board.progressValue', {
                          step: stepLabel(r.progress.reached),
                          done: r.progress.position,
                          total: r.progress.total,
                        })}
                  </span>
                  <div className="small text-secondary">
                    {r.lastActivityAt
                      ? t('board.lastActive', { when: formatRelative(r.lastActivityAt) })
                      : t('board.notOpened')}
                  </div>
                </div>
              </td>
              <td data-label={t('board.state')}>
                <StateBadge state={r.status} />
              </td>
              <td data-label={t('board.payment')}>
                {r.payment.status === 'approved'
                  ? `${t('board.paid')}${r.payment.cardLast4 ? ` · ${formatCard(r.payment.cardBrand, r.payment.cardLast4)}` : ''}`
                  : r.payment.status === 'chosen'
                    ? t('board.chosen')
                    : t('board.noPayment')}
              </td>
              <td data-label={t('board.created')}>{formatDate(r.createdAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
