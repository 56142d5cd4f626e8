/**
 * Payment authorisation (spec screen 6, sections 3-5 and 8). The card form lives in this component's state only:
 * never in Redux, never persisted, never sent to our API (the gateway's scripts take it). See docs/payment-page.md.
 */
import { useCallback, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from '../../i18n';
import {
  agreementText,
  CARD_ON_FILE_AGREEMENT_VERSION,
  dollarsToCents,
  formatUsd,
  patientEndpoints,
  PaymentSource,
  StepRoutes,
} from '@paylink/shared';
import { ApiError, call } from '../../lib/api-client';
import { useApiFailure } from '../../lib/use-api-failure';
import { useAppConfig } from '../../lib/app-config';
import { useAppSelector } from '../../store/hooks';
import { ErrorDisplay } from '../../components/error-display';
import { PageLayout } from '../../components/page-layout';
import { Spinner } from '../../components/spinner';
import { useNeutralizeBack } from '../../lib/use-neutralize-back';
import { selectPatient } from '../../store/patient-slice';
import { DocumentFrame } from '../../components/document-frame';
import { useSigningMessage } from '../../lib/use-signing-message';
import { useStepNavigation } from '../../lib/use-step-navigation';
import { canPayNow, prefillCardForm, validateCardForm, type CardField, type CardForm } from './card-form';
import {
  CVC_MAX,
  caretAfterDigits,
  detectCardBrand,
  formatCardNumber,
  normalizeExpiry,
  sanitizeCardNumber,
} from './card-rules';
import { loadGateway } from './gateway/load-gateway';
import type { GatewayGlobals } from './gateway/types';
import { PaymentModal } from './payment-modal';
import { US_STATES } from './us-states';
import { useCardPayment } from './use-card-payment';
import { PlanAgreement, planAgreementWords } from './plan-agreement';
import { usePlan } from '../../lib/use-plan';
import './payment.css';

/** The spec's payment authorisation frame height. */
const AUTHORIZATION_FRAME_HEIGHT = 400;

/** Messages that only mean "not finished yet": shown after the field is left, not while typing. */
const INCOMPLETE = new Set([
  'expiry.format',
  'cvc.length',
  'cardNumber.tooShort',
  'invalid.payorEmail',
  'invalid.receiptEmail',
]);

type Touched = Partial<Record<CardField | 'Agreed', boolean>>;

function FieldFeedback(props: { id: string; children: ReactNode }) {
  return (
    <div id={props.id} className="invalid-feedback d-block" aria-live="polite">
      {props.children}
    </div>
  );
}

export default function PaymentAuthorizationPage(props: { loadGatewayGlobals?: () => Promise<GatewayGlobals> }) {
  const { t, i18n } = useTranslation('payment');
  const config = useAppConfig();
  const nav = useStepNavigation(StepRoutes.payment);
  const patient = useAppSelector(selectPatient);
  const paymentSource =
    Number(patient?.paymentSource) === PaymentSource.Payor ? PaymentSource.Payor : PaymentSource.Patient;
  const paymentType = Number(patient?.paymentType) === 2 ? 2 : 1;
  const amountDollars = Number(patient?.paymentAmount ?? 0);
  const [form, setForm] = useState<CardForm>(() => prefillCardForm(paymentSource, patient));
  const [touched, setTouched] = useState<Touched>({});
  const [today] = useState(() => new Date());
  const frameRef = useRef<HTMLIFrameElement>(null);
  const payButton = useRef<HTMLButtonElement>(null);
  const closedKind = useRef<string | undefined>(undefined);
  // The payment's status line: focus waits here while PAY NOW is locked (issue 29, item 5; decision 0220).
  const status = useRef<HTMLParagraphElement>(null);
  const documentUrl = paymentSource === PaymentSource.Payor ? (nav.step?.documentUrl ?? null) : null;
  const { signed } = useSigningMessage({ signOrigin: config.signOrigin, frameRef, documentUrl });
  const fail = useApiFailure();
  // A link with a payment plan (issue 28): the card-on-file agreement, its own box, recorded before the checkout.
  const plan = usePlan(nav.linkId);
  const [planAgreed, setPlanAgreed] = useState(false);
  const [agreementFailed, setAgreementFailed] = useState(false);
  const [agreementChanged, setAgreementChanged] = useState(false);
  const retryPlan = plan.retry;
  const agreementRecorded = useRef<string | null>(null);
  const shownAgreement = useRef<{ lang: 'en' | 'es'; text: string; cardLabel: string | null } | null>(null);
  const hasPlan = plan.status === 'ready';
  const beforePay = useCallback(async (): Promise<boolean> => {
    const shown = shownAgreement.current;
    // Once per words: a retry after a decline records nothing new, unless another card now stands in the words.
    if (!hasPlan || !shown || agreementRecorded.current === shown.text) return true;
    setAgreementFailed(false);
    setAgreementChanged(false);
    try {
      await call(patientEndpoints.acceptPlanAgreement, {
        params: { linkId: nav.linkId },
        // The version and the words on this page, which are the words the patient read: the server checks them
        // against the plan and keeps them (decision 0214).
        body: { version: CARD_ON_FILE_AGREEMENT_VERSION, accepted: true, ...shown },
      });
      agreementRecorded.current = shown.text;
      return true;
    } catch (e) {
      // A session or link that ended goes where it always does; anything else is said here, nothing is charged.
      if (e instanceof ApiError && (e.status === 401 || e.status === 403)) fail(e);
      else if (e instanceof ApiError && e.code === 'agreement_changed') {
        // The plan changed under the page: show the new words and ask for the box again.
        setPlanAgreed(false);
        setAgreementChanged(true);
        retryPlan();
      } else setAgreementFailed(true);
      return false;
    }
  }, [hasPlan, nav.linkId, fail, retryPlan]);
  const payment = useCardPayment({
    linkId: nav.linkId,
    step: nav.step,
    amountDollars,
    paymentSource,
    loadGatewayGlobals: props.loadGatewayGlobals,
    beforePay,
  });
  const uid = useId();
  useNeutralizeBack();

  // Fetch the gateway's scripts while the patient types, so PAY NOW starts at once; a failure is retried on submit.
  const injected = props.loadGatewayGlobals !== undefined;
  useEffect(() => {
    if (!injected) loadGateway(config.gateway).catch(() => undefined);
  }, [injected, config.gateway]);

  // PAY NOW unlocked again while focus still waits on the status line (nothing else took it): back to PAY NOW.
  useEffect(() => {
    if (!payment.submitting && document.activeElement === status.current) payButton.current?.focus();
  }, [payment.submitting]);

  const planError = plan.status === 'error' ? plan.error : null;
  useEffect(() => {
    if (planError instanceof ApiError && (planError.status === 401 || planError.status === 403)) fail(planError);
  }, [planError, fail]);

  const ctx = { paymentSource, authorisationSigned: signed, now: today };
  const errors = validateCardForm(form, ctx);
  const brand = detectCardBrand(form.CardNumber);
  const lang = i18n.resolvedLanguage === 'es' ? 'es' : 'en';
  const locale = lang === 'es' ? 'es-US' : 'en-US';
  const cardKept =
    brand && !errors.CardNumber
      ? t('plan.cardEnding', { brand: t(`cardType.${brand.brand}`), last4: form.CardNumber.slice(-4) })
      : null;
  const shownText = plan.status === 'ready' ? agreementText(planAgreementWords(plan.plan, lang, cardKept).words) : null;
  // What PAY NOW sends as the words the patient read: the ones on screen after this render.
  useEffect(() => {
    shownAgreement.current = shownText === null ? null : { lang, text: shownText, cardLabel: cardKept };
  }, [shownText, lang, cardKept]);

  const failedCall = nav.error ?? payment.error;
  if (failedCall) return <ErrorDisplay error={failedCall} />;
  if (!patient) {
    return (
      <PageLayout title={t('title')}>
        <Spinner />
      </PageLayout>
    );
  }

  // With a plan, PAY NOW also needs the agreement box; while the plan is unknown it waits.
  const planAllowsPay = plan.status === 'none' || (plan.status === 'ready' && planAgreed);
  const payEnabled = canPayNow(form, { ...ctx, submitting: payment.submitting }) && planAllowsPay;
  // Waiting for another browser's payment (issue 25): PAY NOW is locked but this page is not processing anything.
  const processing = payment.submitting && payment.otherPayment !== 'in_progress';

  const touch = (field: CardField | 'Agreed') => setTouched((t0) => (t0[field] ? t0 : { ...t0, [field]: true }));
  const set = (field: CardField, value: string) => {
    setForm((f) => ({ ...f, [field]: value }));
    // Emptying a field is a finished edit: say at once that it is required.
    if (value === '') touch(field);
  };
  const shown = (field: CardField | 'Agreed'): string | undefined => {
    const e = errors[field];
    if (!e) return undefined;
    if (touched[field]) return e;
    const value = field === 'Agreed' ? '' : form[field];
    return value !== '' && !INCOMPLETE.has(e) ? e : undefined;
  };
  const fid = (field: string) => `${uid}-${field}`;
  const inputProps = (field: CardField) => {
    const err = shown(field);
    return {
      id: fid(field),
      name: field,
      className: `form-control${err ? ' is-invalid' : ''}`,
      value: form[field],
      onBlur: () => touch(field),
      'aria-invalid': err ? true : undefined,
      'aria-describedby': err ? fid(`${field}-error`) : undefined,
      required: true,
      disabled: payment.submitting,
    };
  };
  const feedback = (field: CardField) => {
    const err = shown(field);
    return err ? <FieldFeedback id={fid(`${field}-error`)}>{t(err)}</FieldFeedback> : null;
  };

  const onSubmit = (e: React.FormEvent) => {
    e.preventDefault();
    if (!payEnabled) return;
    // PAY NOW is about to be locked (disabled): focus goes to the status line that says what happens, never <body>.
    status.current?.focus();
    void payment.submit(form);
  };

  const expiryError = shown('ExpirationDate');
  return (
    <PageLayout title={t('title')} showProgress>
      <h2 className="visually-hidden">{t('summaryLabel')}</h2>
      <dl className="payment-summary">
        <div>
          <dt>{t('paymentDate')}</dt>
          <dd data-testid="payment-date">{today.toLocaleDateString('en-US')}</dd>
        </div>
        <div>
          <dt>{t('paymentSource')}</dt>
          <dd data-testid="payment-source">{t(`source.${paymentSource}`)}</dd>
        </div>
        <div>
          <dt>{t('paymentType')}</dt>
          <dd>{t(`type.${paymentType}`)}</dd>
        </div>
        <div>
          <dt>{t('amount')}</dt>
          <dd className="fw-semibold">{formatUsd(dollarsToCents(amountDollars), locale)}</dd>
        </div>
      </dl>

      <form noValidate onSubmit={onSubmit} className="card-form" aria-busy={payment.submitting}>
        {paymentSource === PaymentSource.Payor && (
          <fieldset className="form-section" disabled={payment.submitting}>
            <legend className="h5">{t('authorization.heading')}</legend>
            <div className="mb-3">
              <label className="form-label" htmlFor={fid('PayorEmail')}>
                {t('fields.payorEmail')}
              </label>
              <input
                {...inputProps('PayorEmail')}
                type="email"
                autoComplete="email"
                maxLength={254}
                aria-describedby={shown('PayorEmail') ? fid('PayorEmail-error') : fid('PayorEmail-hint')}
                onChange={(e) => set('PayorEmail', e.target.value)}
              />
              {feedback('PayorEmail') ?? (
                <div id={fid('PayorEmail-hint')} className="form-text">
                  {t('fields.payorEmailHint')}
                </div>
              )}
            </div>
            {documentUrl ? (
              <DocumentFrame
                ref={frameRef}
                documentUrl={documentUrl}
                title={t('authorization.frameTitle')}
                height={AUTHORIZATION_FRAME_HEIGHT}
              />
            ) : (
              <div className="alert alert-warning">{t('authorization.noDocument')}</div>
            )}
            <p className={`small ${signed ? 'text-success' : 'text-body-secondary'}`} role="status">
              {signed ? t('authorization.signed') : t('required.signature')}
            </p>
          </fieldset>
        )}

        <fieldset className="form-section" disabled={payment.submitting}>
          <legend className="h5">{t('cardDetails')}</legend>
          <div className="mb-3">
            <label className="form-label" htmlFor={fid('FullName')}>
              {t('fields.fullName')}
            </label>
            <input
              {...inputProps('FullName')}
              type="text"
              autoComplete="cc-name"
              maxLength={100}
              onChange={(e) => set('FullName', e.target.value)}
            />
            {feedback('FullName')}
          </div>

          <div className="mb-3">
            <label className="form-label" htmlFor={fid('CardNumber')}>
              {t('fields.cardNumber')}
            </label>
            <div className="input-group has-validation">
              <input
                {...inputProps('CardNumber')}
                type="text"
                inputMode="numeric"
                autoComplete="cc-number"
                value={formatCardNumber(form.CardNumber)}
                onChange={(e) => {
                  // Digits only are kept (no length rule on the raw text: a pasted "4000 0000 0000 0002" keeps
                  // its 16 digits); the field shows them grouped, the caret stays after the same digit.
                  const el = e.target;
                  const caret = el.selectionStart ?? el.value.length;
                  const before = el.value.slice(0, caret).replace(/\D+/g, '').length;
                  const digits = sanitizeCardNumber(el.value);
                  set('CardNumber', digits);
                  const at = caretAfterDigits(formatCardNumber(digits), Math.min(before, digits.length));
                  requestAnimationFrame(() => {
                    if (el.ownerDocument.activeElement === el) el.setSelectionRange(at, at);
                  });
                }}
              />
              <span
                className={`input-group-text card-type card-type-${brand?.brand ?? 'unknown'}`}
                data-testid="card-type"
                aria-hidden="true"
              >
                {brand ? t(`cardType.${brand.brand}`) : <span className="card-type-icon" />}
              </span>
            </div>
            <div className="visually-hidden" aria-live="polite">
              {brand ? t('cardType.label', { brand: t(`cardType.${brand.brand}`) }) : ''}
            </div>
            {feedback('CardNumber')}
            {brand && !brand.lengthValid && form.CardNumber.length >= 13 && !shown('CardNumber') && (
              <div className="form-text">
                {t('cardType.lengths', {
                  brand: t(`cardType.${brand.brand}`),
                  lengths: brand.lengths.length > 1 ? `${brand.lengths[0]}-${brand.lengths.at(-1)}` : brand.lengths[0],
                })}
              </div>
            )}
          </div>

          <div className="row g-3 mb-3">
            <div className="col-12 col-sm-6">
              <label className="form-label" htmlFor={fid('ExpirationDate')}>
                {t('fields.expiry')}
              </label>
              <input
                {...inputProps('ExpirationDate')}
                type="text"
                inputMode="numeric"
                autoComplete="cc-exp"
                placeholder={t('fields.expiryPlaceholder')}
                maxLength={9}
                aria-describedby={expiryError ? fid('ExpirationDate-error') : fid('ExpirationDate-hint')}
                onChange={(e) => set('ExpirationDate', normalizeExpiry(e.target.value))}
              />
              {expiryError ? (
                <FieldFeedback id={fid('ExpirationDate-error')}>
                  <strong className="d-block">{t('expiry.mainMessage')}</strong>
                  {t(expiryError)}
                </FieldFeedback>
              ) : (
                <div id={fid('ExpirationDate-hint')} className="form-text">
                  {t('fields.expiryHint')}
                </div>
              )}
            </div>
            <div className="col-12 col-sm-6">
              <label className="form-label" htmlFor={fid('Cvc')}>
                {t('fields.cvc')}
              </label>
              <input
                {...inputProps('Cvc')}
                type="text"
                inputMode="numeric"
                autoComplete="cc-csc"
                maxLength={CVC_MAX}
                onChange={(e) => set('Cvc', e.target.value)}
              />
              {feedback('Cvc') ?? <div className="form-text">{t('fields.cvcHint')}</div>}
            </div>
          </div>
        </fieldset>

        <fieldset className="form-section" disabled={payment.submitting}>
          <legend className="h5">{t('billingDetails')}</legend>
          <div className="mb-3">
            <label className="form-label" htmlFor={fid('BillingZip')}>
              {t('fields.billingZip')}
            </label>
            <input
              {...inputProps('BillingZip')}
              type="text"
              inputMode="numeric"
              autoComplete="billing postal-code"
              maxLength={10}
              onChange={(e) => set('BillingZip', e.target.value)}
            />
            {feedback('BillingZip')}
          </div>
          <div className="mb-3">
            <label className="form-label" htmlFor={fid('BillingAddress')}>
              {t('fields.billingAddress')}
            </label>
            <input
              {...inputProps('BillingAddress')}
              type="text"
              autoComplete="billing street-address"
              maxLength={200}
              onChange={(e) => set('BillingAddress', e.target.value)}
            />
            {feedback('BillingAddress')}
          </div>
          <div className="row g-3 mb-3">
            <div className="col-12 col-sm-7">
              <label className="form-label" htmlFor={fid('BillingCity')}>
                {t('fields.billingCity')}
              </label>
              <input
                {...inputProps('BillingCity')}
                type="text"
                autoComplete="billing address-level2"
                maxLength={100}
                onChange={(e) => set('BillingCity', e.target.value)}
              />
              {feedback('BillingCity')}
            </div>
            <div className="col-12 col-sm-5">
              <label className="form-label" htmlFor={fid('BillingState')}>
                {t('fields.billingState')}
              </label>
              <select
                {...inputProps('BillingState')}
                className={`form-select${shown('BillingState') ? ' is-invalid' : ''}`}
                autoComplete="billing address-level1"
                onChange={(e) => {
                  set('BillingState', e.target.value);
                  touch('BillingState');
                }}
              >
                <option value="">{t('fields.selectState')}</option>
                {US_STATES.map((s) => (
                  <option key={s.abbreviation} value={s.name} title={s.name}>
                    {s.abbreviation}
                  </option>
                ))}
              </select>
              {feedback('BillingState')}
            </div>
          </div>
        </fieldset>

        {paymentSource === PaymentSource.Patient && (
          <fieldset className="form-section" disabled={payment.submitting}>
            <legend className="h5">{t('receipt.heading')}</legend>
            <div className="mb-3">
              <label className="form-label" htmlFor={fid('ReceiptEmail')}>
                {t('fields.receiptEmail')}
              </label>
              <input
                {...inputProps('ReceiptEmail')}
                required={false}
                type="email"
                autoComplete="email"
                maxLength={254}
                aria-describedby={shown('ReceiptEmail') ? fid('ReceiptEmail-error') : fid('ReceiptEmail-hint')}
                onChange={(e) => setForm((f) => ({ ...f, ReceiptEmail: e.target.value }))}
              />
              {feedback('ReceiptEmail') ?? (
                <div id={fid('ReceiptEmail-hint')} className="form-text">
                  {t(patient.phone ? 'fields.receiptEmailHint' : 'fields.receiptEmailHintNoPhone')}
                </div>
              )}
            </div>
          </fieldset>
        )}

        {plan.status === 'loading' && (
          <p className="plan-loading" data-testid="plan-loading">
            <Spinner small label={t('plan.loading')} /> <span aria-hidden="true">{t('plan.loading')}</span>
          </p>
        )}
        {plan.status === 'error' && (
          <div className="alert alert-danger" role="alert">
            <p>{t('plan.loadFailed')}</p>
            <button type="button" className="btn btn-outline-danger" onClick={plan.retry}>
              {t('plan.retry')}
            </button>
          </div>
        )}
        {plan.status === 'ready' && (
          <PlanAgreement
            plan={plan.plan}
            lang={lang}
            card={cardKept}
            checked={planAgreed}
            disabled={payment.submitting}
            onChange={(checked) => {
              setPlanAgreed(checked);
              setAgreementFailed(false);
              setAgreementChanged(false);
            }}
            id={fid('PlanAgreed')}
            agreeLabel={t('plan.agree')}
            scheduleLabel={t('plan.scheduleLabel')}
          />
        )}

        <p id={fid('terms')} className="authorization-text">
          {/* A partial payment is not a deposit: the sentence names what is being paid (decision 0164). */}
          {t(paymentType === 2 ? 'authorizationTextPayment' : 'authorizationText', {
            practice: config.practice.name,
            amount: formatUsd(dollarsToCents(amountDollars), locale),
          })}
        </p>
        <div className="form-check mb-3">
          <input
            id={fid('Agreed')}
            type="checkbox"
            className={`form-check-input${shown('Agreed') ? ' is-invalid' : ''}`}
            checked={form.Agreed}
            disabled={payment.submitting}
            aria-describedby={fid('terms')}
            onChange={(e) => {
              const checked = e.target.checked;
              setForm((f) => ({ ...f, Agreed: checked }));
              touch('Agreed');
            }}
          />
          <label className="form-check-label" htmlFor={fid('Agreed')}>
            {t('agree')}
          </label>
        </div>

        <div className="pay-actions">
          <button ref={payButton} type="submit" className="btn btn-primary btn-lg w-100" disabled={!payEnabled}>
            {processing ? (
              <>
                <Spinner small label={t('processing')} /> <span aria-hidden="true">{t('processing')}</span>
              </>
            ) : (
              t('payNow')
            )}
          </button>
          {agreementFailed && (
            <p className="alert alert-danger mt-3" role="alert">
              {t('plan.agreementFailed')}
            </p>
          )}
          {agreementChanged && (
            <p className="alert alert-warning mt-3" role="alert">
              {t('plan.agreementChanged')}
            </p>
          )}
          {/* Mounted before its message, so screen readers announce it; focus waits here while PAY NOW is locked. */}
          <p
            ref={status}
            tabIndex={-1}
            role="status"
            className={processing ? 'alert alert-info mt-3' : 'visually-hidden'}
          >
            {processing ? t('processingStatus') : ''}
          </p>
          {payment.checking && (
            <p className="alert alert-info mt-3" role="status">
              {t('checkingLastPayment')}
            </p>
          )}
          {payment.otherPayment === 'in_progress' && (
            <p className="alert alert-info mt-3" role="status">
              <span className="spinner-border spinner-border-sm me-2" aria-hidden="true" />
              {t('paymentInProgress')}
            </p>
          )}
          {payment.otherPayment === 'ended' && (
            <p className="alert alert-warning mt-3" role="status">
              {t('paymentInProgressEnded')}
            </p>
          )}
          {!payEnabled && !payment.submitting && (
            // A plan's page has two boxes to check: the hint names both (issue 41).
            <p className="form-text text-center">{t(hasPlan ? 'completeToPayPlan' : 'completeToPay')}</p>
          )}
          <p className="encryption-notice">
            <span className="lock-icon" aria-hidden="true" />
            {t('encrypted')}
          </p>
        </div>
      </form>

      <PaymentModal
        outcome={payment.failure}
        onClose={() => {
          closedKind.current = payment.failure?.kind;
          payment.closeModal();
        }}
        onExited={() => {
          // Focus goes back to a sensible control, never <body>: the card number to change after a decline or a
          // failed authentication, PAY NOW when the service was unreachable (try again).
          const target =
            closedKind.current === 'unavailable' ? payButton.current : document.getElementById(fid('CardNumber'));
          (target ?? payButton.current)?.focus();
        }}
      />
    </PageLayout>
  );
}
