/**
 * One document step (spec screens 3-5): progress bar, title, instructions, the embedded document, and Next, which
 * stays disabled until the signing frame reports completion from the signing origin, and once pressed.
 */
import { useRef } from 'react';
import { StepStatus } from '@paylink/shared';
import { useTranslation } from '../../i18n';
import { useAppConfig } from '../../lib/app-config';
import { ErrorDisplay } from '../../components/error-display';
import { PageLayout } from '../../components/page-layout';
import { Spinner } from '../../components/spinner';
import { useNeutralizeBack } from '../../lib/use-neutralize-back';
import { DocumentFrame } from '../../components/document-frame';
import { useSigningMessage } from '../../lib/use-signing-message';
import { useStepNavigation } from '../../lib/use-step-navigation';

export type DocumentKind = 'invoice' | 'patientId' | 'payorId' | 'contract';

/** Frame heights (decision 0032): the contract's 575 px is the spec's; the others fill most of a phone screen. */
const FRAME_HEIGHTS: Record<DocumentKind, number | string> = {
  invoice: 'clamp(480px, 72vh, 900px)',
  patientId: 'clamp(520px, 75vh, 900px)',
  payorId: 'clamp(520px, 75vh, 900px)',
  contract: 575,
};

function IdInstructions(props: { payor?: boolean }) {
  const { t } = useTranslation('steps');
  return (
    <section className="mb-3 id-instructions-section">
      <p>{t(props.payor ? 'idInstructions.payorIntro' : 'idInstructions.intro')}</p>
      <ol className="id-instructions" aria-label={t('idInstructions.listLabel')}>
        <li>{t('idInstructions.item1')}</li>
        <li>{t('idInstructions.item2')}</li>
        <li>{t('idInstructions.item3')}</li>
        <li>{t('idInstructions.item4')}</li>
        <li>{t('idInstructions.item5')}</li>
      </ol>
    </section>
  );
}

export function DocumentStepPage(props: { kind: DocumentKind; routePath: string }) {
  const { t } = useTranslation('steps');
  const config = useAppConfig();
  const nav = useStepNavigation(props.routePath);
  const frameRef = useRef<HTMLIFrameElement>(null);
  const documentUrl = nav.step?.documentUrl ?? null;
  const { signed: signedNow } = useSigningMessage({ signOrigin: config.signOrigin, frameRef, documentUrl });
  // The server only completes a step whose document is signed, so a completed step counts as signed.
  const signed = signedNow || nav.step?.linkStepStatusId === StepStatus.Completed;
  useNeutralizeBack();

  if (nav.error) return <ErrorDisplay error={nav.error} />;

  const { kind } = props;
  const isId = kind === 'patientId' || kind === 'payorId';
  return (
    <PageLayout title={t(`${kind}.title`)} showProgress>
      {/* ID steps: on phones the upload frame comes first and the instructions after it (documents.css). */}
      <div className={isId ? 'id-step' : undefined}>
        {isId ? <IdInstructions payor={kind === 'payorId'} /> : <p>{t(`${kind}.intro`)}</p>}
        {!nav.step ? (
          <div className="alert alert-warning">{t('noStep')}</div>
        ) : documentUrl ? (
          <DocumentFrame
            ref={frameRef}
            documentUrl={documentUrl}
            title={t(`${kind}.frameTitle`)}
            height={FRAME_HEIGHTS[kind]}
          />
        ) : (
          <div className="alert alert-warning">{t('noDocument')}</div>
        )}
      </div>
      <div className="step-actions">
        <p className={`mb-0 small ${signed ? 'text-success' : 'text-body-secondary'}`} role="status">
          {signed ? t('signed') : t('signToContinue')}
        </p>
        <button
          type="button"
          className="btn btn-primary btn-lg"
          disabled={!signed || nav.busy || nav.done}
          onClick={() => void nav.complete()}
        >
          {nav.busy ? (
            <>
              <Spinner small label={t('saving')} /> <span aria-hidden="true">{t('saving')}</span>
            </>
          ) : (
            t('next')
          )}
        </button>
      </div>
    </PageLayout>
  );
}
