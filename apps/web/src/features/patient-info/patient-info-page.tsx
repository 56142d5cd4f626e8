/**
 * /patientinfo (spec screen 2). 'Loading...' with a spinner until patient data is present; the back button does
 * nothing here. See load-patient-info.ts for the first-load rules and patient-info-form.tsx for the form.
 */
import { startTransition, useEffect, useState } from 'react';
import { useNavigate } from '../../lib/router';
import { useTranslation } from '../../i18n';
import { useAppDispatch, useAppSelector } from '../../store/hooks';
import { PageLayout } from '../../components/page-layout';
import { Spinner } from '../../components/spinner';
import { ErrorDisplay } from '../../components/error-display';
import { selectPatient } from '../../store/patient-slice';
import type { ApiError } from '../../lib/api-client';
import { useApiFailure } from '../../lib/use-api-failure';
import { useNeutralizeBack } from '../../lib/use-neutralize-back';
import { loadPatientInfo } from './load-patient-info';
import { PatientInfoForm } from './patient-info-form';

export default function PatientInfoPage() {
  const { t } = useTranslation();
  useNeutralizeBack();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const fail = useApiFailure();
  const linkId = useAppSelector((s) => s.link.link_id);
  const patient = useAppSelector(selectPatient);
  const [loaded, setLoaded] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);

  useEffect(() => {
    const ac = new AbortController();
    loadPatientInfo({ linkId, dispatch, signal: ac.signal })
      .then((r) => {
        if (r.kind === 'continue') void navigate(r.routePath, { replace: true });
        // The form renders in slices (a transition), not in one long task on a slow phone (decision 0180).
        else startTransition(() => setLoaded(true));
      })
      .catch((e: unknown) => {
        if (ac.signal.aborted) return;
        const shown = fail(e);
        if (shown) setError(shown);
      });
    return () => ac.abort();
    // Once per visit of the page: the load clears and refills the store itself.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [linkId]);

  if (error) return <ErrorDisplay error={error} />;
  return (
    <PageLayout title={t('patientInfo.title')}>
      {/* The intro shows with the heading from the first paint (index.html's frame shows both; decision 0184). */}
      <p className="lead-hint">{t('patientInfo.intro')}</p>
      {loaded && patient ? (
        <PatientInfoForm patient={patient} onError={setError} />
      ) : (
        <div className="app-loading flex-column gap-2" aria-live="polite">
          <Spinner label={t('loading')} />
          <p className="mb-0" aria-hidden="true">
            {t('loading')}
          </p>
        </div>
      )}
    </PageLayout>
  );
}
