import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { call } from '../../shared/api/client';
import { consoleEndpoints, type TamperCheck } from '../../shared/api/contract';
import { PageTitle } from '../../shared/components/page-title';
import { ErrorAlert, Loading, useErrorMessage } from '../../shared/components/query-state';
import { TableScroll } from '../../shared/components/table-scroll';
import { formatDateTime } from '../../shared/lib/format';
import { BusyButton } from '../../shared/components/busy-button';

const SCRIPTS_KEY = ['compliance', 'scripts'];
const CHECKS_KEY = ['compliance', 'checks'];
const REPORTS_KEY = ['compliance', 'csp-reports'];

/**
 * PCI DSS 6.4.3 / 11.6.1 for the payment page (issue 11), for the practice's admin: the scripts the page may run with
 * their integrity and justification, the tamper checks (and one on demand), and the CSP violations browsers reported.
 */
export function CompliancePage() {
  const { t } = useTranslation();
  return (
    <>
      <PageTitle>{t('compliance.title')}</PageTitle>
      <p className="text-secondary">{t('compliance.intro')}</p>
      <TamperChecks />
      <Scripts />
      <CspReports />
    </>
  );
}

function CheckResult(props: { check: TamperCheck }) {
  const { t } = useTranslation();
  const { check } = props;
  return (
    <div className={`alert ${check.ok ? 'alert-success' : 'alert-danger'} mb-2`} role="status">
      <strong>{check.ok ? t('compliance.checkOk') : t('compliance.checkFailed')}</strong>{' '}
      <span>{t('compliance.checkedAt', { when: formatDateTime(check.ranAt) })}</span>
      {check.findings.length > 0 && (
        <ul className="mb-0 mt-2">
          {check.findings.map((f, i) => (
            <li key={i}>
              <code>{f.kind}</code>: <span className="text-break">{f.detail}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function TamperChecks() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const errorMessage = useErrorMessage();
  const checks = useQuery({
    queryKey: CHECKS_KEY,
    queryFn: ({ signal }) => call(consoleEndpoints.tamperChecks, { signal, query: { limit: 10 } }),
  });
  const run = useMutation({
    mutationFn: () => call(consoleEndpoints.tamperCheck),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['compliance'] }),
  });
  return (
    <section className="card mb-4" aria-labelledby="tamper-heading">
      <div className="card-body">
        <div className="d-flex flex-wrap align-items-center justify-content-between gap-2 mb-2">
          <h2 id="tamper-heading" className="h5 mb-0">
            {t('compliance.checksTitle')}
          </h2>
          <BusyButton type="button" className="btn btn-primary" busy={run.isPending} onClick={() => run.mutate()}>
            {run.isPending ? t('compliance.running') : t('compliance.runNow')}
          </BusyButton>
        </div>
        <p className="text-secondary small">{t('compliance.checksHelp')}</p>
        {run.error && (
          <div className="alert alert-danger" role="alert">
            {errorMessage(run.error)}
          </div>
        )}
        {checks.isPending ? (
          <Loading />
        ) : checks.error ? (
          <ErrorAlert error={checks.error} onRetry={() => void checks.refetch()} />
        ) : checks.data.checks.length === 0 ? (
          <p className="mb-0">{t('compliance.noChecks')}</p>
        ) : (
          <>
            <CheckResult check={checks.data.checks[0]!} />
            {checks.data.checks.length > 1 && (
              <details>
                <summary>{t('compliance.history')}</summary>
                <ul className="list-unstyled mt-2 mb-0">
                  {checks.data.checks.slice(1).map((c) => (
                    <li key={c.id}>
                      {formatDateTime(c.ranAt)} ·{' '}
                      {c.ok ? t('compliance.ok') : t('compliance.findings', { count: c.findings.length })} ·{' '}
                      {c.trigger === 'staff' ? t('compliance.byStaff') : t('compliance.bySchedule')}
                    </li>
                  ))}
                </ul>
              </details>
            )}
          </>
        )}
      </div>
    </section>
  );
}

function Scripts() {
  const { t } = useTranslation();
  const scripts = useQuery({
    queryKey: SCRIPTS_KEY,
    queryFn: ({ signal }) => call(consoleEndpoints.complianceScripts, { signal }),
  });
  return (
    <section className="card mb-4" aria-labelledby="scripts-heading">
      <div className="card-body">
        <h2 id="scripts-heading" className="h5">
          {t('compliance.scriptsTitle')}
        </h2>
        {scripts.isPending ? (
          <Loading />
        ) : scripts.error ? (
          <ErrorAlert error={scripts.error} onRetry={() => void scripts.refetch()} />
        ) : (
          <>
            {!scripts.data.built && (
              <div className="alert alert-warning" role="alert">
                {t('compliance.notBuilt')}
              </div>
            )}
            {scripts.data.generatedAt && (
              <p className="text-secondary small">
                {t('compliance.generatedAt', { when: formatDateTime(scripts.data.generatedAt) })}
              </p>
            )}
            <TableScroll label={t('compliance.scriptsTable')}>
              <table className="table table-sm align-middle">
                <thead>
                  <tr>
                    <th scope="col">{t('compliance.script')}</th>
                    <th scope="col">{t('compliance.owner')}</th>
                    <th scope="col">{t('compliance.integrity')}</th>
                    <th scope="col">{t('compliance.justification')}</th>
                  </tr>
                </thead>
                <tbody>
                  {scripts.data.scripts.map((s) => (
                    <tr key={s.url}>
                      <td className="text-break">
                        <code>{s.url}</code>
                      </td>
                      <td>{t(`compliance.owners.${s.owner}`)}</td>
                      <td className="text-break small">
                        {s.integrity ? <code>{s.integrity.slice(0, 24)}…</code> : t('compliance.pinnedByOrigin')}
                      </td>
                      <td className="small">{t(`codes.scriptPurpose.${s.purpose}`)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
            <details>
              <summary>{t('compliance.cspTitle')}</summary>
              <pre className="small text-wrap text-break mt-2 mb-0">
                <code>{scripts.data.contentSecurityPolicy}</code>
              </pre>
            </details>
          </>
        )}
      </div>
    </section>
  );
}

function CspReports() {
  const { t } = useTranslation();
  const reports = useQuery({
    queryKey: REPORTS_KEY,
    queryFn: ({ signal }) => call(consoleEndpoints.cspReports, { signal, query: { limit: 50 } }),
  });
  return (
    <section className="card mb-4" aria-labelledby="reports-heading">
      <div className="card-body">
        <h2 id="reports-heading" className="h5">
          {t('compliance.reportsTitle')}
        </h2>
        <p className="text-secondary small">{t('compliance.reportsHelp')}</p>
        {reports.isPending ? (
          <Loading />
        ) : reports.error ? (
          <ErrorAlert error={reports.error} onRetry={() => void reports.refetch()} />
        ) : reports.data.reports.length === 0 ? (
          <p className="mb-0">{t('compliance.noReports')}</p>
        ) : (
          <TableScroll label={t('compliance.reportsTable')}>
            <table className="table table-sm align-middle">
              <thead>
                <tr>
                  <th scope="col">{t('compliance.when')}</th>
                  <th scope="col">{t('compliance.page')}</th>
                  <th scope="col">{t('compliance.blocked')}</th>
                  <th scope="col">{t('compliance.directive')}</th>
                </tr>
              </thead>
              <tbody>
                {reports.data.reports.map((r) => (
                  <tr key={r.id}>
                    <td>{formatDateTime(r.receivedAt)}</td>
                    <td className="text-break">{r.documentUri}</td>
                    <td className="text-break">
                      <code>{r.blockedUri}</code>
                    </td>
                    <td>{r.effectiveDirective}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </div>
    </section>
  );
}
