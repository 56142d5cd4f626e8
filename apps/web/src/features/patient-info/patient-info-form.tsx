/**
 * The patient information form (spec screen 2 and section 5): read-only details, payment type (locked links are
 * forced to 2), who pays, the amount, AGREE. Submit records the choice (POST /api/linkpaymenthistory), creates the
 * step list (POST /api/linksteps/script) and goes to the second step's routePath.
 */
import { useId, useState } from 'react';
import { useNavigate } from '../../lib/router';
import { useTranslation } from '../../i18n';
import { patientEndpoints, PaymentSource, PaymentType, amountRule, formatPhoneNumber } from '@paylink/shared';
import { useAppDispatch, useAppSelector } from '../../store/hooks';
import { ButtonSpinner } from '../../components/spinner';
import { isSessionValid } from '../../store/auth-slice';
import { updatePatient, type PatientRecord } from '../../store/patient-slice';
import { setSteps } from '../../store/step-production-slice';
import { setContinue } from '../../store/continue-slice';
import { type ApiError, call } from '../../lib/api-client';
import { useApiFailure } from '../../lib/use-api-failure';
import { usePlan } from '../../lib/use-plan';
import { AmountField, amountVerdict } from './amount-field';
import { PlanSummary } from './plan-summary';

const str = (v: number | null | undefined) => (v === null || v === undefined ? '' : String(v));

/** The ids sent on submit (spec section 5 "Defaults on submit"). */
function submittedChoice(opts: { locked: boolean; paymentType: string; paymentSource: string }) {
  const paymentTypeId = opts.locked ? PaymentType.Payment : Number(opts.paymentType) || PaymentType.Deposit;
  const paymentSourceId = Number(opts.paymentSource) || PaymentSource.Patient;
  return { paymentTypeId, paymentSourceId };
}

export function PatientInfoForm(props: { patient: PatientRecord; onError: (e: ApiError) => void }) {
  const { t } = useTranslation();
  const { patient } = props;
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const fail = useApiFailure();
  const linkId = useAppSelector((s) => s.link.link_id);
  const sessionValid = useAppSelector((s) => isSessionValid(s.auth));
  const locked = patient.isPaymentLinkLocked;
  const ids = { type: useId(), source: useId() };

  const [paymentType, setPaymentType] = useState(() =>
    locked ? String(PaymentType.Payment) : str(patient.paymentType) || String(PaymentType.Deposit),
  );
  // "I am (the patient)" is chosen unless the link says otherwise: the same default the submit applies (decision 0162).
  const [paymentSource, setPaymentSource] = useState(() => str(patient.paymentSource) || String(PaymentSource.Patient));
  const [amount, setAmount] = useState(() => str(patient.paymentAmount));
  const [clicked, setClicked] = useState(false);

  const rule = amountRule({ locked, paymentTypeId: Number(paymentType) });
  const verdict = amountVerdict(amount, rule);
  // A plan link (issue 41, item 5): the total and the charges that follow are shown before AGREE. A plan that cannot
  // be loaded shows nothing here (most links have none); the payment page refuses a card until it has the schedule.
  const plan = usePlan(linkId);
  const shownType = locked ? String(PaymentType.Payment) : paymentType;
  const typeLabel = t(shownType === String(PaymentType.Payment) ? 'patientInfo.partialPayment' : 'patientInfo.deposit');
  const disabled = !patient.firstName || verdict !== 'valid' || clicked || !sessionValid;

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (disabled) return;
    setClicked(true);
    const { paymentTypeId, paymentSourceId } = submittedChoice({ locked, paymentType, paymentSource });
    const paymentAmount = Number(amount);
    try {
      await call(patientEndpoints.recordPaymentChoice, {
        body: { linkId, paymentTypeId, paymentSourceId, paymentAmount },
      });
      const steps = await call(patientEndpoints.createStepList, {
        query: { linkId, paymentTypeId, paymentSourceId, paymentAmount },
      });
      dispatch(setSteps(steps));
      dispatch(updatePatient({ paymentType: paymentTypeId, paymentSource: paymentSourceId, paymentAmount }));
      dispatch(setContinue(false));
      const next = steps[1]?.routePath;
      if (next) void navigate(next);
      else void navigate('/notauthorized', { replace: true });
    } catch (e) {
      setClicked(false);
      const shown = fail(e);
      if (shown) props.onError(shown);
    }
  };

  const readOnly: [keyof PatientRecord, string, string?][] = [
    ['firstName', 'patientInfo.firstName', 'given-name'],
    ['lastName', 'patientInfo.lastName', 'family-name'],
    ['address', 'patientInfo.address', 'street-address'],
    ['city', 'patientInfo.city', 'address-level2'],
    ['state', 'patientInfo.state', 'address-level1'],
    ['zipCode', 'patientInfo.zipCode', 'postal-code'],
    ['phone', 'patientInfo.phone', 'tel'],
    ['email', 'patientInfo.email', 'email'],
  ];

  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <section className="card-panel" aria-labelledby="details-heading">
        <h2 id="details-heading" className="h5 mb-3">
          {t('patientInfo.details')}
        </h2>
        <div className="row g-3">
          {readOnly.map(([field, label, autoComplete]) => {
            const raw = String(patient[field] ?? '').trim();
            const value = field === 'phone' ? formatPhoneNumber(raw) : raw;
            return (
              <div key={field} className={field === 'address' || field === 'email' ? 'col-12' : 'col-12 col-sm-6'}>
                <label htmlFor={`pi-${field}`} className="form-label">
                  {t(label)}
                </label>
                <input
                  id={`pi-${field}`}
                  className={`form-control${value ? '' : ' not-on-file'}`}
                  type="text"
                  readOnly
                  autoComplete={autoComplete}
                  value={value}
                  // An empty detail says so instead of showing a blank grey box.
                  placeholder={value ? undefined : t('patientInfo.notOnFile')}
                />
              </div>
            );
          })}
        </div>
      </section>

      <section className="card-panel" aria-labelledby="payment-heading">
        <h2 id="payment-heading" className="h5 mb-3">
          {t('patientInfo.payment')}
        </h2>
        <div className="mb-3">
          <label htmlFor={ids.type} className="form-label">
            {t('patientInfo.paymentType')}
          </label>
          <select
            id={ids.type}
            className="form-select"
            value={locked ? String(PaymentType.Payment) : paymentType}
            disabled={locked}
            aria-describedby={locked ? `${ids.type}-locked` : undefined}
            onChange={(e) => setPaymentType(e.target.value)}
          >
            <option value={String(PaymentType.Deposit)}>{t('patientInfo.deposit')}</option>
            <option value={String(PaymentType.Payment)}>{t('patientInfo.partialPayment')}</option>
          </select>
          {locked && (
            <div id={`${ids.type}-locked`} className="form-text">
              {t('patientInfo.lockedNote')}
            </div>
          )}
        </div>

        <fieldset className="mb-3">
          <legend className="form-label fs-6">{t('patientInfo.whoPays')}</legend>
          {[
            [PaymentSource.Patient, 'patientInfo.payerPatient'],
            [PaymentSource.Payor, 'patientInfo.payerPayor'],
          ].map(([value, label]) => (
            <div className="form-check" key={value}>
              <input
                className="form-check-input"
                type="radio"
                name="paymentSource"
                id={`${ids.source}-${value}`}
                value={String(value)}
                checked={paymentSource === String(value)}
                onChange={(e) => setPaymentSource(e.target.value)}
              />
              <label className="form-check-label" htmlFor={`${ids.source}-${value}`}>
                {t(String(label))}
              </label>
            </div>
          ))}
        </fieldset>

        <AmountField value={amount} onChange={setAmount} rule={rule} />

        {plan.status === 'ready' && (
          <PlanSummary
            plan={plan.plan}
            amountDollars={verdict === 'valid' ? Number(amount) : null}
            paymentTypeLabel={typeLabel}
          />
        )}

        {!sessionValid && (
          <p className="text-danger" role="alert">
            {t('patientInfo.sessionExpired')}
          </p>
        )}
        <button
          type="submit"
          className="btn btn-primary btn-lg w-100"
          disabled={disabled}
          aria-busy={clicked || undefined}
        >
          {clicked ? <ButtonSpinner /> : null}
          {t('patientInfo.agree')}
        </button>
        <p className="form-text mt-2 mb-0">{t('patientInfo.agreeNote')}</p>
      </section>
    </form>
  );
}
