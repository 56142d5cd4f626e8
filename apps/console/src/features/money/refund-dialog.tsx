import { useId, useState } from 'react';
import Modal from 'react-bootstrap/Modal';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../shared/api/client';
import type { RefundResult } from '../../shared/api/contract';
import { formatMoney } from '../../shared/lib/format';
import { newIdempotencyKey, parseDollars, refundLink } from './money-api';
import { useErrorMessage } from '../../shared/components/query-state';

export interface RefundTarget {
  linkId: string;
  /** Dollars paid and already given back. */
  amount: number;
  refunded: number;
  cardBrand: string | null;
  cardLast4: string | null;
}

/**
 * Refund or void a link's payment: amount (empty = everything left) and a required reason, then a confirmation step.
 * The Idempotency-Key is made when the dialog opens, so a retry after an error or a double click is the same refund.
 */
export function RefundDialog(props: { show: boolean; target: RefundTarget; onClose: (done?: RefundResult) => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const errorMessage = useErrorMessage();
  const id = useId();
  const [key, setKey] = useState(newIdempotencyKey);
  const [amountText, setAmountText] = useState('');
  const [reason, setReason] = useState('');
  const [step, setStep] = useState<'form' | 'confirm'>('form');
  const [touched, setTouched] = useState(false);
  const remaining = Math.round((props.target.amount - props.target.refunded) * 100) / 100;

  const mutation = useMutation({
    mutationFn: () =>
      refundLink(
        props.target.linkId,
        { reason: reason.trim(), ...(amountText.trim() ? { amount: parseDollars(amountText)! } : {}) },
        key,
      ),
    onSuccess: async (result) => {
      await queryClient.invalidateQueries({ queryKey: ['link', props.target.linkId] });
      await queryClient.invalidateQueries({ queryKey: ['payments'] });
      props.onClose(result);
    },
    onSettled: () => void queryClient.invalidateQueries({ queryKey: ['link', props.target.linkId, 'refunds'] }),
  });

  const amount = amountText.trim() ? parseDollars(amountText) : remaining;
  const amountError =
    amount === null
      ? t('money.refund.amountInvalid')
      : amount > remaining
        ? t('money.refund.amountTooHigh', { amount: formatMoney(remaining) })
        : '';
  const reasonError = reason.trim() === '' ? t('money.refund.reasonRequired') : '';
  const card = props.target.cardLast4
    ? `${props.target.cardBrand ?? ''} •••• ${props.target.cardLast4}`.trim()
    : t('money.refund.anyCard');

  const reset = () => {
    setKey(newIdempotencyKey());
    setAmountText('');
    setReason('');
    setStep('form');
    setTouched(false);
    mutation.reset();
  };

  return (
    <Modal
      show={props.show}
      onHide={() => !mutation.isPending && props.onClose()}
      onEnter={reset}
      aria-labelledby={`${id}-title`}
      centered
    >
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          if (step === 'form') {
            setTouched(true);
            if (!amountError && !reasonError) setStep('confirm');
          } else if (!mutation.isPending) {
            mutation.mutate();
          }
        }}
      >
        <Modal.Header closeButton closeLabel={t('common.close')}>
          <Modal.Title id={`${id}-title`} as="h2" className="h5">
            {step === 'form' ? t('money.refund.title') : t('money.refund.confirmTitle')}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          {step === 'form' ? (
            <>
              <ul className="list-unstyled small mb-3">
                <li>{t('money.refund.paid', { amount: formatMoney(props.target.amount) })}</li>
                {props.target.refunded > 0 && (
                  <li>{t('money.refund.alreadyRefunded', { amount: formatMoney(props.target.refunded) })}</li>
                )}
                <li className="fw-semibold">{t('money.refund.remaining', { amount: formatMoney(remaining) })}</li>
              </ul>
              <div className="mb-3">
                <label htmlFor={`${id}-amount`} className="form-label">
                  {t('money.refund.amount')}
                </label>
                <input
                  id={`${id}-amount`}
                  className={`form-control ${touched && amountError ? 'is-invalid' : ''}`}
                  inputMode="decimal"
                  autoComplete="off"
                  value={amountText}
                  placeholder={remaining.toFixed(2)}
                  aria-invalid={touched && amountError ? true : undefined}
                  aria-describedby={`${id}-amount-hint${touched && amountError ? ` ${id}-amount-error` : ''}`}
                  onChange={(e) => setAmountText(e.target.value)}
                />
                <div id={`${id}-amount-hint`} className="form-text">
                  {t('money.refund.amountHint', { amount: formatMoney(remaining) })}
                </div>
                {touched && amountError && (
                  <div id={`${id}-amount-error`} className="invalid-feedback d-block">
                    {amountError}
                  </div>
                )}
              </div>
              <div className="mb-3">
                <label htmlFor={`${id}-reason`} className="form-label">
                  {t('money.refund.reason')}
                </label>
                <textarea
                  id={`${id}-reason`}
                  className={`form-control ${touched && reasonError ? 'is-invalid' : ''}`}
                  rows={2}
                  maxLength={500}
                  required
                  value={reason}
                  aria-invalid={touched && reasonError ? true : undefined}
                  aria-describedby={touched && reasonError ? `${id}-reason-error` : undefined}
                  onChange={(e) => setReason(e.target.value)}
                />
                {touched && reasonError && (
                  <div id={`${id}-reason-error`} className="invalid-feedback d-block">
                    {reasonError}
                  </div>
                )}
              </div>
              <p className="small text-secondary mb-0">{t('money.refund.howItWorks')}</p>
            </>
          ) : (
            <p>{t('money.refund.confirmBody', { amount: formatMoney(amount ?? 0), card })}</p>
          )}
          {mutation.error && (
            <div className="alert alert-danger mt-3 mb-0" role="alert">
              {errorMessage(mutation.error)}
            </div>
          )}
        </Modal.Body>
        <Modal.Footer>
          {step === 'form' ? (
            <>
              <button type="button" className="btn btn-outline-secondary" onClick={() => props.onClose()}>
                {t('common.cancel')}
              </button>
              <button type="submit" className="btn btn-primary">
                {t('money.refund.review')}
              </button>
            </>
          ) : (
            <>
              <button
                type="button"
                className="btn btn-outline-secondary"
                disabled={mutation.isPending}
                onClick={() => {
                  // The server answered (refused): the next try may change the amount, so it is a new request.
                  if (mutation.error instanceof ApiError) setKey(newIdempotencyKey());
                  mutation.reset();
                  setStep('form');
                }}
              >
                {t('money.refund.back')}
              </button>
              <button type="submit" className="btn btn-danger" disabled={mutation.isPending}>
                {mutation.isPending && <span className="spinner-border spinner-border-sm me-2" aria-hidden="true" />}
                {t('money.refund.confirm', { amount: formatMoney(amount ?? 0) })}
              </button>
            </>
          )}
        </Modal.Footer>
      </form>
    </Modal>
  );
}
