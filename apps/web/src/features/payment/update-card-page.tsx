/**
 * /updatecard (issue 28, decision 0211): a plan's patient replaces the card kept for the charges to come, after a
 * declined instalment or before the card expires. Signed in as on any other page; shows the instalments still open
 * and the card on file; takes a new card through the same gateway path as the deposit (our server's session token,
 * 3-D Secure and `pay` in the gateway's scripts, the server asking the gateway) but as a verification: nothing is
 * charged. The card-on-file agreement is accepted again for the new card. No documents.
 */
import { useId, useRef, useState, type FormEvent } from 'react';
import {
  agreementText,
  CARD_ON_FILE_AGREEMENT_VERSION,
  dollarsToCents,
  formatUsd,
  patientEndpoints,
} from '@paylink/shared';
import { useTranslation } from '../../i18n';
import { Navigate } from '../../lib/router';
import { ApiError, NetworkError, call } from '../../lib/api-client';
import { useAppConfig } from '../../lib/app-config';
import { formatDueDate, usePlan } from '../../lib/use-plan';
import { useApiFailure } from '../../lib/use-api-failure';
import { authPath } from '../../lib/session';
import { useAppSelector } from '../../store/hooks';
import { isSessionValid } from '../../store/auth-slice';
import { PageLayout } from '../../components/page-layout';
import { ButtonSpinner, Spinner } from '../../components/spinner';
import { ErrorDisplay } from '../../components/error-display';
import { emptyCardForm, type CardForm } from './card-form';
import {
  CVC_MAX,
  detectCardBrand,
  formatCardNumber,
  normalizeExpiry,
  sanitizeCardNumber,
  validateCardNumber,
  validateCvc,
  validateExpiry,
} from './card-rules';
import { PlanAgreement, planAgreementWords } from './plan-agreement';
import { loadGateway } from './gateway/load-gateway';
import { runPayment } from './gateway/run-payment';
import type { GatewayGlobals } from './gateway/types';
import { focusSoon } from '../../lib/focus';
import './payment.css';

type Fields = Pick<CardForm, 'FullName' | 'CardNumber' | 'ExpirationDate' | 'Cvc' | 'BillingZip'>;
type Phase =
  | { kind: 'form' }
  | { kind: 'saving' }
  | { kind: 'failed'; message: string }
  | { kind: 'saved'; brand: string | null; last4: string | null; retrying: number };

const OPEN = new Set(['scheduled', 'notified', 'failed']);

/** Unit tests hand in a stand-in for the outside gateway (as on the payment page); the app loads the real scripts. */
type Props = { loadGatewayGlobals?: () => Promise<GatewayGlobals> };

export default function UpdateCardPage(props: Props) {
  const auth = useAppSelector((s) => s.auth);
  const linkId = useAppSelector((s) => s.link.link_id) ?? '';
  if (!linkId) return <Navigate to="/forbidden" replace />;
  if (!isSessionValid(auth)) return <Navigate to={`${authPath(linkId)}&next=card`} replace />;
  return <UpdateCard linkId={linkId} loadGatewayGlobals={props.loadGatewayGlobals} />;
}

function UpdateCard(props: Props & { linkId: string }) {
  const { t, i18n } = useTranslation('payment');
  const lang = i18n.resolvedLanguage === 'es' ? 'es' : 'en';
  const locale = lang === 'es' ? 'es-US' : 'en-US';
  const config = useAppConfig();
  const fail = useApiFailure();
  const plan = usePlan(props.linkId);
  const id = useId();
  const fid = (name: string) => `${id}-${name}`;
  const [form, setForm] = useState<Fields>({
    FullName: '',
    CardNumber: '',
    ExpirationDate: '',
    Cvc: '',
    BillingZip: '',
  });
  const [agreed, setAgreed] = useState(false);
  const [tried, setTried] = useState(false);
  const [phase, setPhase] = useState<Phase>({ kind: 'form' });
  const [pageError, setPageError] = useState<ApiError | null>(null);
  const status = useRef<HTMLDivElement>(null);

  if (pageError) return <ErrorDisplay error={pageError} />;
  if (plan.status === 'loading') {
    return (
      <PageLayout title={t('updateCard.title')}>
        <div className="app-loading">
          <Spinner label={t('plan.loading')} />
        </div>
      </PageLayout>
    );
  }
  if (plan.status !== 'ready') {
    return (
      <PageLayout title={t('updateCard.title')}>
        <div className="alert alert-warning" role="alert">
          <p>{plan.status === 'none' ? t('updateCard.noPlan') : t('updateCard.loadFailed')}</p>
          {plan.status === 'error' && (
            <button type="button" className="btn btn-outline-primary" onClick={plan.retry}>
              {t('plan.retry')}
            </button>
          )}
        </div>
      </PageLayout>
    );
  }
  const p = plan.plan;
  const open = p.installments.filter((i) => OPEN.has(i.status));
  const closed = p.projected || open.length === 0;
  // After "Save new card" the card on file is the new one (the page does not load the plan again).
  const onFile = phase.kind === 'saved' && phase.last4 ? { brand: phase.brand, last4: phase.last4 } : (p.card ?? null);
  const cardName = (c: { brand: string | null; last4: string }) =>
    t('plan.cardEnding', {
      brand: c.brand ? t(`cardType.${c.brand}`, { defaultValue: c.brand }) : '',
      last4: c.last4,
    }).trim();
  /** What happened to an open instalment, in words: which payment was declined, when, and what comes next. */
  const statusText = (i: (typeof open)[number]) => {
    if (i.status === 'failed') {
      return t('updateCard.status.failed', { practice: p.practice.name, phone: p.practice.phone });
    }
    if (i.nextTryOn) {
      const nextTry = formatDueDate(i.nextTryOn, locale);
      return i.lastDeclinedOn
        ? t('updateCard.status.declined', { declinedOn: formatDueDate(i.lastDeclinedOn, locale), nextTry })
        : t('updateCard.status.declinedRetry', { nextTry });
    }
    return t(`updateCard.status.${i.status}`);
  };

  const errors: Partial<Record<keyof Fields | 'Agreed', string>> = {};
  if (!form.FullName.trim()) errors.FullName = 'required.fullName';
  const numberError = validateCardNumber(form.CardNumber);
  if (numberError) errors.CardNumber = numberError;
  const expiryError = validateExpiry(form.ExpirationDate);
  if (expiryError) errors.ExpirationDate = expiryError;
  const cvcError = validateCvc(form.Cvc);
  if (cvcError) errors.Cvc = cvcError;
  if (!form.BillingZip.trim()) errors.BillingZip = 'required.billingZip';
  if (!agreed) errors.Agreed = 'updateCard.agreeRequired';
  const brand = detectCardBrand(form.CardNumber);
  const busy = phase.kind === 'saving';
  const newCard =
    form.CardNumber.length >= 13 && brand
      ? t('plan.cardEnding', { brand: t(`cardType.${brand.brand}`), last4: form.CardNumber.slice(-4) })
      : null;

  const set = (k: keyof Fields, v: string) => setForm((f) => ({ ...f, [k]: v }));
  const say = (next: Phase) => {
    setPhase(next);
    focusSoon(status.current);
  };
  const apiMessage = (e: unknown) => {
    const b = e instanceof ApiError ? (e.body as { message?: unknown } | null) : null;
    return b && typeof b.message === 'string' ? b.message : t('updateCard.failed');
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (busy || Object.keys(errors).length > 0) return;
    setPhase({ kind: 'saving' });
    const card: CardForm = { ...emptyCardForm, ...form, Agreed: true };
    try {
      await call(patientEndpoints.acceptPlanAgreement, {
        params: { linkId: props.linkId },
        // The words on screen, naming the new card: the server checks and keeps them (decision 0214).
        body: {
          version: CARD_ON_FILE_AGREEMENT_VERSION,
          accepted: true,
          lang,
          text: agreementText(planAgreementWords(p, lang, newCard).words),
          cardLabel: newCard,
        },
      });
      const session = await call(patientEndpoints.cardUpdateSession, { params: { linkId: props.linkId } });
      let outcome;
      try {
        const gateway = await (props.loadGatewayGlobals ?? (() => loadGateway(config.gateway)))();
        // A verification: 3-D Secure for $0.00, the gateway stores the card and charges nothing.
        outcome = await runPayment({
          gateway,
          threeDSBaseUrl: config.gateway.threeDSBaseUrl,
          sessionToken: session.sessionToken,
          amountCents: 0,
          card,
        });
      } catch {
        outcome = { kind: 'unavailable' as const };
      }
      if (outcome.kind !== 'approved') {
        say({
          kind: 'failed',
          message:
            outcome.kind === 'threeDSFailed'
              ? t('updateCard.threeDSFailed')
              : outcome.kind === 'unavailable'
                ? t('updateCard.unavailable')
                : t('updateCard.declined'),
        });
        return;
      }
      const transactionId = String(outcome.response.ssl_txn_id ?? '');
      let result;
      for (let attempt = 0; ; attempt++) {
        try {
          result = await call(patientEndpoints.updatePlanCard, {
            params: { linkId: props.linkId },
            body: { updateId: session.updateId, transactionId },
          });
          break;
        } catch (err) {
          const transient = err instanceof NetworkError || (err instanceof ApiError && err.status >= 502);
          if (!transient || attempt >= 3) throw err;
          await new Promise((r) => setTimeout(r, 1000 * 2 ** attempt));
        }
      }
      say({ kind: 'saved', brand: result.card.brand, last4: result.card.last4, retrying: result.retrying });
    } catch (err) {
      if (err instanceof ApiError && err.status < 500 && err.status !== 401 && err.status !== 403) {
        say({ kind: 'failed', message: apiMessage(err) });
        return;
      }
      const shown = fail(err);
      if (shown) setPageError(shown);
    }
  };

  const shown = (k: keyof typeof errors) => (tried ? errors[k] : undefined);
  const field = (k: keyof Fields, label: string, input: Partial<React.InputHTMLAttributes<HTMLInputElement>>) => {
    const err = shown(k);
    return (
      <div className="mb-3">
        <label className="form-label" htmlFor={fid(k)}>
          {label}
        </label>
        <input
          id={fid(k)}
          className={`form-control${err ? ' is-invalid' : ''}`}
          value={form[k]}
          required
          aria-invalid={err ? true : undefined}
          aria-describedby={err ? fid(`${k}-error`) : undefined}
          onChange={(e) => set(k, e.target.value)}
          {...input}
        />
        {err && (
          <div id={fid(`${k}-error`)} className="invalid-feedback d-block">
            {t(err)}
          </div>
        )}
      </div>
    );
  };

  return (
    <PageLayout title={t('updateCard.title')}>
      <section aria-labelledby={fid('open')} className="mb-4">
        <h2 id={fid('open')} className="h5">
          {t('updateCard.openHeading')}
        </h2>
        {open.length === 0 ? (
          <p>{t('updateCard.nothingOpen')}</p>
        ) : (
          <ul className="list-unstyled plan-schedule" data-testid="open-installments">
            {open.map((i) => (
              <li key={i.n} className="d-flex justify-content-between border-bottom py-2">
                <span>
                  {formatDueDate(i.dueOn, locale)}
                  <span
                    className={`d-block small ${i.status === 'failed' || i.nextTryOn ? 'text-danger-emphasis' : 'text-body-secondary'}`}
                  >
                    {statusText(i)}
                  </span>
                </span>
                <span className="fw-semibold">{formatUsd(dollarsToCents(i.amount), locale)}</span>
              </li>
            ))}
          </ul>
        )}
        {onFile && (
          <p className="mb-0" data-testid="card-on-file">
            {t('updateCard.current', { card: cardName(onFile) })}
          </p>
        )}
        {p.card && p.cardExpiresBefore && phase.kind !== 'saved' && (
          <div className="alert alert-warning mt-3 mb-0" data-testid="card-expiring">
            {t('updateCard.expiring', {
              card: cardName(p.card),
              date: formatDueDate(p.cardExpiresBefore, locale),
            })}
          </div>
        )}
      </section>

      <div ref={status} tabIndex={-1} aria-live="polite" className="update-card-status">
        {phase.kind === 'failed' && (
          <div className="alert alert-danger" role="alert">
            <p className="mb-0">{phase.message}</p>
            <p className="mb-0 small">{t('updateCard.unchanged')}</p>
          </div>
        )}
        {phase.kind === 'saved' && (
          <div className="alert alert-success" role="status" data-testid="card-saved">
            <p className="mb-1 fw-semibold">{t('updateCard.saved', { last4: phase.last4 ?? '' })}</p>
            {phase.retrying > 0 ? (
              <p className="mb-0">{t('updateCard.retrying')}</p>
            ) : (
              open.some((i) => i.status !== 'failed') && <p className="mb-0">{t('updateCard.nextCharges')}</p>
            )}
            {open.some((i) => i.status === 'failed') && (
              // A failed payment is not retried by a new card (decision 0211): the practice charges it.
              <p className="mb-0 mt-1">
                {t('updateCard.failedCharge', { practice: p.practice.name, phone: p.practice.phone })}
              </p>
            )}
          </div>
        )}
      </div>

      {phase.kind !== 'saved' && !closed && (
        <form noValidate onSubmit={(e) => void submit(e)} className="card-form" aria-busy={busy}>
          <fieldset className="form-section" disabled={busy}>
            <legend className="h5">{t('updateCard.newCard')}</legend>
            <p className="small text-body-secondary">{t('updateCard.noCharge')}</p>
            {field('FullName', t('fields.fullName'), { type: 'text', autoComplete: 'cc-name', maxLength: 100 })}
            {field('CardNumber', t('fields.cardNumber'), {
              type: 'text',
              inputMode: 'numeric',
              autoComplete: 'cc-number',
              value: formatCardNumber(form.CardNumber),
              onChange: (e) => set('CardNumber', sanitizeCardNumber(e.target.value)),
            })}
            <div className="row g-3">
              <div className="col-6">
                {field('ExpirationDate', t('fields.expiry'), {
                  type: 'text',
                  inputMode: 'numeric',
                  autoComplete: 'cc-exp',
                  placeholder: t('fields.expiryPlaceholder'),
                  maxLength: 9,
                  onBlur: (e) => set('ExpirationDate', normalizeExpiry(e.target.value)),
                })}
              </div>
              <div className="col-6">
                {field('Cvc', t('fields.cvc'), {
                  type: 'text',
                  inputMode: 'numeric',
                  autoComplete: 'cc-csc',
                  maxLength: CVC_MAX,
                  onChange: (e) => set('Cvc', e.target.value.replace(/\D+/g, '')),
                })}
              </div>
            </div>
            {field('BillingZip', t('fields.billingZip'), {
              type: 'text',
              inputMode: 'numeric',
              autoComplete: 'postal-code',
              maxLength: 10,
            })}
          </fieldset>
          <PlanAgreement
            plan={p}
            lang={lang}
            card={newCard}
            checked={agreed}
            disabled={busy}
            onChange={setAgreed}
            id={fid('agree')}
            agreeLabel={t('plan.agree')}
            scheduleLabel={t('plan.scheduleLabel')}
          />
          {shown('Agreed') && (
            <div className="invalid-feedback d-block mb-3" role="alert">
              {t('updateCard.agreeRequired')}
            </div>
          )}
          <button type="submit" className="btn btn-primary w-100 py-2" disabled={busy} aria-busy={busy}>
            {busy && <ButtonSpinner />}
            {busy ? t('updateCard.saving') : t('updateCard.save')}
          </button>
        </form>
      )}
      {closed && phase.kind !== 'saved' && (
        <p className="alert alert-info">{p.projected ? t('updateCard.beforeDeposit') : t('updateCard.nothingOpen')}</p>
      )}
    </PageLayout>
  );
}
