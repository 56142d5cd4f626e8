/**
 * /confirmation (spec screen 7): check image, 'Your payment was successful', the Transaction ID, the amount in USD,
 * a thank-you and 'Check your email for your receipt' — when a receipt was e-mailed; otherwise what was sent
 * (issue 10 item 7: a text message, or nothing). Without patient or payment data: the steps-complete message.
 */
import { useTranslation } from '../../i18n';
import { useLocation } from '../../lib/router';
import { formatUsd, parseDollarsToCents, PaymentSource } from '@paylink/shared';
import { PageLayout } from '../../components/page-layout';
import { useAppSelector } from '../../store/hooks';
import { selectPatient } from '../../store/patient-slice';
import { useNeutralizeBack } from '../../lib/use-neutralize-back';
import { MessagePage } from '../../components/message-page';
import { scheduleLines, usePlan } from '../../lib/use-plan';

function CheckImage(props: { label: string }) {
  return (
    <svg className="confirmation-check" width="72" height="72" viewBox="0 0 72 72" role="img" aria-label={props.label}>
      <circle cx="36" cy="36" r="34" fill="#146c43" />
      <path
        d="M21 37.5l10 10 20-22"
        fill="none"
        stroke="#fff"
        strokeWidth="6"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

/** What was actually sent (issue 10 item 7): never a promised e-mail that does not exist. */
function ReceiptNote(props: { channel: string; to: string }) {
  const { t } = useTranslation();
  if (props.channel === 'email') {
    return (
      <>
        <p className="mb-0 fw-semibold">{t('confirmation.receipt')}</p>
        {props.to && <p className="small mb-0">{t('confirmation.receiptSentTo', { to: props.to })}</p>}
      </>
    );
  }
  if (props.channel === 'sms') {
    return <p className="mb-0 fw-semibold">{t('confirmation.receiptSms', { to: props.to })}</p>;
  }
  if (props.channel === 'none') return <p className="mb-0">{t('confirmation.receiptNone')}</p>;
  return null;
}

/** A plan link's charges to come (issue 28), from the server's plan now that the deposit is paid. */
function NextCharges(props: { linkId: string; locale: string }) {
  const { t } = useTranslation();
  const plan = usePlan(props.linkId);
  if (plan.status !== 'ready') return null;
  const lines = scheduleLines(plan.plan, props.locale);
  if (lines.length === 0) return null;
  const card = plan.plan.card;
  return (
    <section className="text-start mx-auto mt-3" style={{ maxWidth: '22rem' }} aria-labelledby="plan-next-charges">
      <h2 id="plan-next-charges" className="h6">
        {t('confirmation.nextCharges')}
      </h2>
      <ul className="mb-1" data-testid="next-charges">
        {lines.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      <p className="small mb-0">
        {card
          ? t('confirmation.planCard', {
              card: card.brand
                ? t('confirmation.cardEndingBrand', { brand: card.brand, last4: card.last4 })
                : t('confirmation.cardEnding', { last4: card.last4 }),
            })
          : t('confirmation.planCardUnknown')}
      </p>
    </section>
  );
}

export default function ConfirmationPage() {
  const { t, i18n } = useTranslation();
  useNeutralizeBack();
  const patient = useAppSelector(selectPatient);
  const payment = useAppSelector((s) => s.payment);
  const linkId = useAppSelector((s) => s.link.link_id);
  const receipt = (useLocation().state as { receipt?: { channel?: string; to?: string } } | null)?.receipt;
  if (!patient || !payment.ssl_txn_id) return <MessagePage titleKey="errors.stepsCompleteTitle" />;

  const cents = parseDollarsToCents(payment.ssl_amount);
  const amount = cents ?? (patient.paymentAmount != null ? patient.paymentAmount * 100 : null);
  const locale = i18n.resolvedLanguage === 'es' ? 'es-US' : 'en-US';
  const payorPaid = Number(patient.paymentSource) === PaymentSource.Payor;
  const payorFirst = (patient.payorName ?? '').trim().split(/\s+/)[0] ?? '';
  const patientName = [patient.firstName, patient.lastName].filter(Boolean).join(' ');
  return (
    <PageLayout title={t('confirmation.title')}>
      <div className="card-panel text-center">
        <CheckImage label={t('confirmation.checkAlt')} />
        <dl className="summary-list text-start mx-auto" style={{ maxWidth: '22rem' }}>
          <dt>{t('confirmation.transactionId')}</dt>
          <dd data-testid="transaction-id">{payment.ssl_txn_id}</dd>
          {amount != null && (
            <>
              <dt>{t('confirmation.amount')}</dt>
              <dd>{formatUsd(amount, locale)}</dd>
            </>
          )}
        </dl>
        {linkId && <NextCharges linkId={linkId} locale={locale} />}
        {payorPaid ? (
          // The payor is the one on this screen: thank them, and say the patient was told (issue 16, item 7).
          <>
            <p className="mt-3 mb-1">
              {payorFirst
                ? t('confirmation.thankYouPayorName', { name: payorFirst, patient: patientName })
                : t('confirmation.thankYouPayor', { patient: patientName })}
            </p>
            <p className="mb-1">{t('confirmation.patientTold', { patient: patientName })}</p>
          </>
        ) : (
          <p className="mt-3 mb-1">
            {patient.firstName
              ? t('confirmation.thankYouName', { name: patient.firstName })
              : t('confirmation.thankYou')}
          </p>
        )}
        <ReceiptNote channel={receipt?.channel ?? ''} to={receipt?.to ?? ''} />
      </div>
    </PageLayout>
  );
}
