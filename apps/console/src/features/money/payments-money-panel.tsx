import { useId, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { FlaggedApproval } from '../../shared/api/contract';
import { ConfirmDialog } from '../../shared/components/confirm-dialog';
import { ErrorAlert, Loading, useErrorMessage } from '../../shared/components/query-state';
import { TableScroll } from '../../shared/components/table-scroll';
import { formatCard, formatDateTime, formatMoney } from '../../shared/lib/format';
import { useCan } from '../../shared/session/use-session';
import { exportUrl, newIdempotencyKey, useFlaggedApprovals, voidFlaggedApproval } from './money-api';

/** The payments screen's money tools for billing and admin: second charges to void, bookkeeping exports. */
export function PaymentsMoneyPanel() {
  const can = useCan();
  if (!can('payments.refund')) return null;
  return (
    <>
      <FlaggedApprovals />
      <Exports />
    </>
  );
}

function FlaggedApprovals() {
  const { t } = useTranslation();
  const id = useId();
  const flags = useFlaggedApprovals();
  const queryClient = useQueryClient();
  const errorMessage = useErrorMessage();
  const [target, setTarget] = useState<FlaggedApproval | null>(null);
  const [key, setKey] = useState(newIdempotencyKey);
  const [done, setDone] = useState<string | null>(null);
  const mutation = useMutation({
    mutationFn: (v: { flag: FlaggedApproval; reason: string }) => voidFlaggedApproval(v.flag.attemptId, v.reason, key),
    onSuccess: async (r) => {
      setDone(t('money.flags.done', { amount: formatMoney(r.amount) }));
      setTarget(null);
      await queryClient.invalidateQueries({ queryKey: ['payments'] });
      await queryClient.invalidateQueries({ queryKey: ['link', r.linkId] });
    },
  });
  if (flags.isPending) return <Loading />;
  if (flags.error) return <ErrorAlert error={flags.error} onRetry={() => void flags.refetch()} />;
  const list = flags.data.flags;
  return (
    <section aria-labelledby={id} className="mb-4">
      <h2 id={id} className="h5">
        {t('money.flags.title')}
      </h2>
      <div aria-live="polite">
        {done && (
          <div className="alert alert-success py-2" role="status">
            {done}
          </div>
        )}
      </div>
      {list.length === 0 ? (
        <p className="text-secondary">{t('money.flags.empty')}</p>
      ) : (
        <>
          <p>{t('money.flags.intro')}</p>
          <TableScroll className="table-responsive-md" label={t('money.flags.title')}>
            <table className="table bg-white border stack-table mb-2">
              <thead className="table-light">
                <tr>
                  <th scope="col">{t('money.flags.patient')}</th>
                  <th scope="col">{t('money.flags.amount')}</th>
                  <th scope="col">{t('money.flags.transaction')}</th>
                  <th scope="col">{t('money.flags.flagged')}</th>
                  <th scope="col">
                    <span className="visually-hidden">{t('money.flags.action')}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.map((f) => (
                  <tr key={f.attemptId}>
                    <td data-label={t('money.flags.patient')}>
                      <Link to={`/links/${f.linkId}`}>
                        {f.firstName} {f.lastName}
                      </Link>
                    </td>
                    <td data-label={t('money.flags.amount')}>{formatMoney(f.amount)}</td>
                    <td data-label={t('money.flags.transaction')} className="text-break">
                      {f.transactionId ?? '—'}
                      {f.cardLast4 && (
                        <div className="small text-secondary">{formatCard(f.cardBrand, f.cardLast4)}</div>
                      )}
                    </td>
                    <td data-label={t('money.flags.flagged')}>
                      {formatDateTime(f.flaggedAt)}
                      <div className="small text-secondary">
                        {t(
                          `money.flags.reason.${f.reason === 'amount_mismatch' ? 'amount_mismatch' : 'second_approval'}`,
                        )}
                      </div>
                    </td>
                    <td>
                      {f.voidPending ? (
                        <span className="small">{t('money.flags.pending')}</span>
                      ) : (
                        <button
                          type="button"
                          className="btn btn-sm btn-outline-danger"
                          onClick={() => {
                            mutation.reset();
                            setKey(newIdempotencyKey());
                            setDone(null);
                            setTarget(f);
                          }}
                        >
                          {t('money.flags.action')}
                        </button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        </>
      )}
      <ConfirmDialog
        show={target !== null}
        title={t('money.flags.dialogTitle')}
        body={
          target
            ? t('money.flags.dialogBody', {
                amount: formatMoney(target.amount),
                transaction: target.transactionId ?? '—',
                card: target.cardLast4 ? formatCard(target.cardBrand, target.cardLast4) : t('money.refund.anyCard'),
              })
            : ''
        }
        confirmLabel={target ? t('money.flags.confirm', { amount: formatMoney(target.amount) }) : ''}
        danger
        askReason
        busy={mutation.isPending}
        error={mutation.error ? errorMessage(mutation.error) : null}
        onConfirm={(reason) => target && mutation.mutate({ flag: target, reason })}
        onCancel={() => !mutation.isPending && setTarget(null)}
      />
    </section>
  );
}

const today = () => new Date().toISOString().slice(0, 10);
const monthStart = () => `${today().slice(0, 8)}01`;

function Exports() {
  const { t } = useTranslation();
  const id = useId();
  const [from, setFrom] = useState(monthStart);
  const [to, setTo] = useState(today);
  const valid = /^\d{4}-\d{2}-\d{2}$/.test(from) && /^\d{4}-\d{2}-\d{2}$/.test(to) && from <= to;
  return (
    <section aria-labelledby={id} className="mb-4">
      <h2 id={id} className="h5">
        {t('money.exports.title')}
      </h2>
      <div className="row g-2 align-items-end">
        <div className="col-6 col-md-3">
          <label htmlFor={`${id}-from`} className="form-label small mb-1">
            {t('money.exports.from')}
          </label>
          <input
            id={`${id}-from`}
            type="date"
            className="form-control"
            value={from}
            aria-describedby={valid ? undefined : `${id}-error`}
            onChange={(e) => setFrom(e.target.value)}
          />
        </div>
        <div className="col-6 col-md-3">
          <label htmlFor={`${id}-to`} className="form-label small mb-1">
            {t('money.exports.to')}
          </label>
          <input
            id={`${id}-to`}
            type="date"
            className="form-control"
            value={to}
            aria-describedby={valid ? undefined : `${id}-error`}
            onChange={(e) => setTo(e.target.value)}
          />
        </div>
        <div className="col-12 col-md-6 d-flex flex-wrap gap-2">
          {(['payments', 'refunds', 'links'] as const).map((name) =>
            valid ? (
              <a key={name} className="btn btn-outline-primary" href={exportUrl(name, from, to)} download>
                {t(`money.exports.${name}`)}
              </a>
            ) : (
              <button key={name} type="button" className="btn btn-outline-primary" disabled>
                {t(`money.exports.${name}`)}
              </button>
            ),
          )}
        </div>
      </div>
      {!valid && (
        <p id={`${id}-error`} className="text-danger small mt-2 mb-0" role="alert">
          {t('money.exports.rangeInvalid')}
        </p>
      )}
    </section>
  );
}
