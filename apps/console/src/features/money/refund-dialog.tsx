import { useId, useMemo, useState } from 'react';
import Modal from 'react-bootstrap/Modal';
import { ModalBox } from '../../shared/components/modal-box';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { ApiError } from '../../shared/api/client';
import { centsToDecimalString, refundBodySchema, type RefundResult } from '../../shared/api/contract';
import { FormField } from '../../shared/forms/form-field';
import { formatCard, formatMoney } from '../../shared/lib/format';
import { newIdempotencyKey, refundLink, useRefundOptions } from './money-api';
import { checkRefundAmount, remainingCents, toRefundBody } from './refund-amount';
import { useErrorMessage } from '../../shared/components/query-state';
import { useFocusWhen } from '../../shared/lib/focus';
import { BusyButton } from '../../shared/components/busy-button';

export interface RefundTarget {
  linkId: string;
  /** Dollars paid and already given back. */
  amount: number;
  refunded: number;
  cardBrand: string | null;
  cardLast4: string | null;
}

interface RefundForm {
  amount: string;
  reason: string;
}
const EMPTY: RefundForm = { amount: '', reason: '' };

/** The amount by the console's money rules (refund-amount.ts; the message is the problem's name), the reason by the server's schema. */
const refundFormSchema = (remaining: number) =>
  z.object({
    amount: z.string().superRefine((text, ctx) => {
      const { problem } = checkRefundAmount(text, remaining);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
    reason: refundBodySchema.shape.reason,
  });

/**
 * Refund or void a link's payment: amount (empty = everything left) and a required reason, then a confirmation step.
 * The Idempotency-Key is made when the dialog opens, so a retry after an error or a double click is the same refund.
 */
export function RefundDialog(props: {
  show: boolean;
  target: RefundTarget;
  onClose: (done?: RefundResult) => void;
  /**
   * Called once the dialog has gone. A caller that gives it puts focus on its own "refunded" status after a refund
   * (the dialog then does not send focus back to the Refund button, which may be gone); otherwise, and after a
   * cancel, focus goes back to the button that opened the dialog.
   */
  onExited?: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const errorMessage = useErrorMessage();
  const id = useId();
  const [key, setKey] = useState(newIdempotencyKey);
  const [step, setStep] = useState<'form' | 'confirm'>('form');
  const remaining = remainingCents(props.target);
  const schema = useMemo(() => refundFormSchema(remaining), [remaining]);
  const form = useForm<RefundForm>({ resolver: zodResolver(schema), defaultValues: EMPTY });
  const { errors } = form.formState;
  const amountText = useWatch({ control: form.control, name: 'amount' });
  // Asked as the dialog opens, so the Review step can say what the gateway allows before anything is confirmed.
  const options = useRefundOptions(props.target.linkId, props.show);
  const [restoreFocus, setRestoreFocus] = useState(true);

  const mutation = useMutation({
    mutationFn: (body: { amount?: number; reason: string }) => refundLink(props.target.linkId, body, key),
    onSuccess: async (result) => {
      await queryClient.invalidateQueries({ queryKey: ['link', props.target.linkId] });
      await queryClient.invalidateQueries({ queryKey: ['payments'] });
      setRestoreFocus(!props.onExited);
      props.onClose(result);
    },
    onSettled: () => void queryClient.invalidateQueries({ queryKey: ['link', props.target.linkId, 'refunds'] }),
  });

  const amountCents = checkRefundAmount(amountText, remaining).cents ?? 0;
  const amount = formatMoney(amountCents / 100);
  const paidCents = Math.round(props.target.amount * 100);
  // Unsettled: only a void of the whole payment is possible today (the server refuses anything else).
  const voidOnly = options.data?.voidOnly === true;
  const partialRefused = voidOnly && amountCents !== paidCents;
  const left = formatMoney(remaining / 100);
  const card = props.target.cardLast4
    ? formatCard(props.target.cardBrand, props.target.cardLast4)
    : t('money.refund.anyCard');

  const reset = () => {
    setKey(newIdempotencyKey());
    form.reset(EMPTY);
    setStep('form');
    mutation.reset();
    setRestoreFocus(true);
  };
  // A refusal takes focus (the confirm button is disabled while it was asked): the keyboard user is at the message.
  const errorRef = useFocusWhen<HTMLDivElement>(mutation.error);
  // At Review, a partial amount on an unsettled payment is refused before anything is sent: focus on why.
  const voidOnlyRef = useFocusWhen<HTMLDivElement>(step !== 'form' && partialRefused);

  return (
    <Modal
      dialogAs={ModalBox}
      show={props.show}
      onHide={() => !mutation.isPending && props.onClose()}
      onEnter={reset}
      onExited={props.onExited}
      restoreFocus={restoreFocus}
      aria-labelledby={`${id}-title`}
      centered
    >
      <form
        noValidate
        onSubmit={(e) => {
          if (step === 'form') return void form.handleSubmit(() => setStep('confirm'))(e);
          e.preventDefault();
          if (!mutation.isPending && !partialRefused) mutation.mutate(toRefundBody(form.getValues()));
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
                <li className="fw-semibold">{t('money.refund.remaining', { amount: left })}</li>
              </ul>
              <FormField
                name="refundAmount"
                label={t('money.refund.amount')}
                hint={t('money.refund.amountHint', { amount: left })}
                error={
                  errors.amount && {
                    ...errors.amount,
                    message: t(`money.refund.${errors.amount.message}`, { amount: left }),
                  }
                }
                registration={form.register('amount')}
                inputMode="decimal"
                autoComplete="off"
                placeholder={centsToDecimalString(remaining)}
              />
              <FormField
                name="refundReason"
                label={t('money.refund.reason')}
                error={errors.reason && { ...errors.reason, message: t('money.refund.reasonRequired') }}
                as="textarea"
                registration={form.register('reason')}
                rows={2}
                maxLength={500}
                required
              />
              <p className="small text-secondary mb-0">{t('money.refund.howItWorks')}</p>
            </>
          ) : (
            <>
              {voidOnly && (
                <div
                  ref={partialRefused ? voidOnlyRef : undefined}
                  tabIndex={partialRefused ? -1 : undefined}
                  className={`alert ${partialRefused ? 'alert-warning' : 'alert-info'} mb-3`}
                  role={partialRefused ? 'alert' : 'status'}
                  data-testid="void-only"
                >
                  {t(partialRefused ? 'billing.refund.voidOnlyPartial' : 'billing.refund.voidOnlyFull', {
                    total: formatMoney(props.target.amount),
                  })}
                </div>
              )}
              {!partialRefused && <p>{t('money.refund.confirmBody', { amount, card })}</p>}
            </>
          )}
          {mutation.error && (
            <div ref={errorRef} tabIndex={-1} className="alert alert-danger mt-3 mb-0" role="alert">
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
              <BusyButton
                type="button"
                className="btn btn-outline-secondary"
                busy={mutation.isPending}
                onClick={() => {
                  // The server answered (refused): the next try may change the amount, so it is a new request.
                  if (mutation.error instanceof ApiError) setKey(newIdempotencyKey());
                  mutation.reset();
                  setStep('form');
                }}
              >
                {t('money.refund.back')}
              </BusyButton>
              <BusyButton type="submit" className="btn btn-danger" busy={mutation.isPending} disabled={partialRefused}>
                {mutation.isPending && <span className="spinner-border spinner-border-sm me-2" aria-hidden="true" />}
                {t('money.refund.confirm', { amount })}
              </BusyButton>
            </>
          )}
        </Modal.Footer>
      </form>
    </Modal>
  );
}
