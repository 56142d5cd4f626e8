/**
 * PAY NOW (spec section 4, CONTRACTS.md "Payments"): session token from our server → the gateway's scripts
 * (3-D Secure, pay) → on approval our server verifies and records it; on anything else the attempt is logged and a
 * modal explains. One submission at a time: the lock is taken before the first await and released only when the
 * modal closes (or the page is replaced by an error).
 */
import { useCallback, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { centsToDecimalString, dollarsToCents, PaymentSource, StepStatus, type LinkStep } from '@paylink/shared';
import { useAppConfig } from '../../lib/app-config';
import { useAppDispatch } from '../../store/hooks';
import { persistor } from '../../store/store';
import { api, ApiError, NetworkError } from '../../lib/api-client';
import { useApiFailure } from '../../lib/use-api-failure';
import { setPayment } from '../../store/payment-slice';
import { updateStepStatus } from '../../store/step-production-slice';
import type { CardForm } from './card-form';
import { loadGateway } from './gateway/load-gateway';
import { paymentLogPayload } from './gateway/log-payload';
import { runPayment, type PaymentOutcome } from './gateway/run-payment';
import type { GatewayGlobals, GatewayResponse } from './gateway/types';
import type { FailedOutcome } from './payment-modal';

export interface CardPaymentOptions {
  linkId: string;
  step: LinkStep | undefined;
  amountDollars: number;
  paymentSource: number;
  /** Unit tests hand in a stand-in for the outside gateway; the app loads the real scripts. */
  loadGatewayGlobals?: () => Promise<GatewayGlobals>;
}

const str = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');

export function useCardPayment(opts: CardPaymentOptions) {
  const config = useAppConfig();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const fail = useApiFailure();
  const lock = useRef(false);
  const [submitting, setSubmitting] = useState(false);
  const [failure, setFailure] = useState<FailedOutcome | null>(null);
  const [error, setError] = useState<ApiError | null>(null);

  const release = useCallback(() => {
    lock.current = false;
    setSubmitting(false);
  }, []);

  const closeModal = useCallback(() => {
    setFailure(null);
    release();
  }, [release]);

  const { linkId, step, amountDollars, paymentSource, loadGatewayGlobals } = opts;

  const recordApproval = useCallback(
    async (response: GatewayResponse, card: CardForm) => {
      const transactionId = str(response.ssl_txn_id);
      const payorEmail = paymentSource === PaymentSource.Payor ? card.PayorEmail.trim() : '';
      let result: { amount?: number } | undefined;
      // The card is charged: a lost answer is retried (the server records one approval once, however often told).
      for (let attempt = 0; ; attempt++) {
        try {
          result = await api.put<{ amount?: number }>('/api/linkpaymenthistory', {
            body: { linkId, transactionId, payorFullName: card.FullName.trim(), payorEmail },
          });
          break;
        } catch (e) {
          if (e instanceof NetworkError && attempt < 2) {
            await new Promise((r) => setTimeout(r, 1000 * (attempt + 1)));
            continue;
          }
          throw e;
        }
      }
      dispatch(
        setPayment({
          ssl_txn_id: transactionId,
          ssl_approval_code: str(response.ssl_approval_code),
          ssl_last_name: str(response.ssl_last_name),
          ssl_result_message: str(response.ssl_result_message),
          ssl_token_response: str(response.ssl_token_response),
          ssl_transaction_type: str(response.ssl_transaction_type),
          // The amount our server verified with the gateway (dollars) comes first.
          ssl_amount:
            (typeof result?.amount === 'number' ? centsToDecimalString(dollarsToCents(result.amount)) : '') ||
            str(response.ssl_amount) ||
            centsToDecimalString(dollarsToCents(amountDollars)),
        }),
      );
      if (step) dispatch(updateStepStatus({ linkStepId: step.linkStepId, linkStepStatusId: StepStatus.Completed }));
      await persistor.flush();
      await persistor.purge();
      await navigate('/confirmation', { replace: true });
    },
    [dispatch, navigate, linkId, step, paymentSource, amountDollars],
  );

  const logFailure = useCallback(
    (outcome: FailedOutcome, card: CardForm) => {
      if (!step) return;
      // Logging must never hide the modal from the patient.
      api
        .post(`/api/linkpaymenthistory/${encodeURIComponent(linkId)}/log`, {
          body: { linkStepId: step.linkStepId, payload: paymentLogPayload(outcome, { cardNumber: card.CardNumber }) },
        })
        .catch(() => undefined);
    },
    [linkId, step],
  );

  const gatewayAttempt = useCallback(
    async (sessionToken: string, amountCents: number, card: CardForm): Promise<PaymentOutcome> => {
      let gateway: GatewayGlobals;
      try {
        gateway = await (loadGatewayGlobals ?? (() => loadGateway(config.gateway)))();
      } catch (e) {
        return { kind: 'unavailable', reason: e instanceof Error ? e.message : String(e) };
      }
      return runPayment({ gateway, threeDSBaseUrl: config.gateway.threeDSBaseUrl, sessionToken, amountCents, card });
    },
    [config.gateway, loadGatewayGlobals],
  );

  const submit = useCallback(
    async (card: CardForm) => {
      if (lock.current) return;
      lock.current = true;
      setSubmitting(true);
      const amountCents = dollarsToCents(amountDollars);
      try {
        const sessionToken = await api.post<string>('/api/converge', {
          query: { amount: centsToDecimalString(amountCents) },
          responseType: 'text',
        });
        const outcome = await gatewayAttempt(sessionToken.trim(), amountCents, card);
        if (outcome.kind === 'approved') {
          try {
            await recordApproval(outcome.response, card);
          } catch (e) {
            // Charged but not recorded: never invite a second payment; the payment error page says whom to call.
            if (e instanceof ApiError && e.status === 401) setError(fail(e));
            else await navigate('/paymenterror', { replace: true });
          }
          return;
        }
        logFailure(outcome, card);
        setFailure(outcome);
      } catch (e) {
        // Our server refused or could not be reached before anything was charged.
        const shown = fail(e);
        if (shown) setError(shown);
        release();
      }
    },
    [amountDollars, gatewayAttempt, recordApproval, logFailure, fail, navigate, release],
  );

  return { submit, submitting, failure, closeModal, error };
}
