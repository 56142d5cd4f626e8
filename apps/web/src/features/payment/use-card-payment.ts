/**
 * PAY NOW (spec section 4, CONTRACTS.md "Payments"): session token from our server → the gateway's scripts
 * (3-D Secure, pay) → on approval our server verifies and records it; on anything else the attempt is logged and a
 * modal explains. One submission at a time: the lock is taken before the first await and released only when the
 * modal closes (or the page is replaced by an error).
 *
 * Another browser paying the same link (409 payment_in_progress, issue 25, decision 0192): the page says so and asks
 * the server every few seconds how that payment is going, keeping PAY NOW locked: once it is recorded the link is
 * completed (401 'Process has completed.': the steps-complete page); once it ended without a payment, PAY NOW is
 * released with a note saying that payment was not completed (never that nothing was charged: this page cannot know).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from '../../lib/router';
import {
  patientEndpoints,
  centsToDecimalString,
  dollarsToCents,
  PaymentSource,
  StepStatus,
  type ConfirmPaymentResult,
  type LinkStep,
} from '@paylink/shared';
import { useAppConfig } from '../../lib/app-config';
import { useAppDispatch } from '../../store/hooks';
import { persistor } from '../../store/store';
import { ApiError, NetworkError, call } from '../../lib/api-client';
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
  /**
   * Runs under the lock before the checkout token is asked for (issue 28: the card-on-file agreement is recorded
   * first); false stops the payment, the caller having said why.
   */
  beforePay?: () => Promise<boolean>;
}

/** Waits between confirmation retries: about 30 s in all. */
const CONFIRM_BACKOFF_MS = [1000, 2000, 4000, 8000, 15000];
/** While the server checks an earlier attempt with the gateway (409 payment_checking), ask again this often. */
const CHECKING_POLL_MS = 3000;
const CHECKING_MAX_POLLS = 60;
/** While another browser pays (409 payment_in_progress), ask how it is going this often; its token lives 10 min. */
export const OTHER_PAYMENT_POLL_MS = 3000;
const OTHER_PAYMENT_MAX_POLLS = 240;

/** Another browser's payment of this link: under way, or ended without a payment being recorded. */
export type OtherPayment = 'in_progress' | 'ended' | null;

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
  const [checking, setChecking] = useState(false);
  const [otherPayment, setOtherPayment] = useState<OtherPayment>(null);
  // Polls stop when the page goes away.
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const release = useCallback(() => {
    lock.current = false;
    setSubmitting(false);
  }, []);

  const closeModal = useCallback(() => {
    setFailure(null);
    release();
  }, [release]);

  const { linkId, step, amountDollars, paymentSource, loadGatewayGlobals, beforePay } = opts;

  const recordApproval = useCallback(
    async (response: GatewayResponse, card: CardForm) => {
      const transactionId = str(response.ssl_txn_id);
      const payorPays = paymentSource === PaymentSource.Payor;
      const payorEmail = payorPays ? card.PayorEmail.trim() : '';
      // The patient's receipt goes to the address on the page ('' = by SMS); the server says what it sent.
      const receiptEmail = payorPays ? undefined : card.ReceiptEmail.trim();
      let result: ConfirmPaymentResult | undefined;
      // The card is charged: a lost answer or a server that cannot reach the gateway yet is retried with backoff
      // for about half a minute (a phone on a train); the server records one approval once, however often told, and
      // keeps confirming on its own after we give up.
      for (let attempt = 0; ; attempt++) {
        try {
          result = await call(patientEndpoints.confirmPayment, {
            body: { linkId, transactionId, payorFullName: card.FullName.trim(), payorEmail, receiptEmail },
          });
          break;
        } catch (e) {
          const transient = e instanceof NetworkError || (e instanceof ApiError && [502, 503, 504].includes(e.status));
          if (transient && attempt < CONFIRM_BACKOFF_MS.length) {
            await new Promise((r) => setTimeout(r, CONFIRM_BACKOFF_MS[attempt]));
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
      // What the receipt was sent by rides in the navigation state (the spec's payment slice has fixed fields).
      const receipt = { channel: result?.receipt?.channel ?? '', to: result?.receipt?.to ?? '' };
      await navigate('/confirmation', { replace: true, state: { receipt } });
    },
    [dispatch, navigate, linkId, step, paymentSource, amountDollars],
  );

  const logFailure = useCallback(
    (outcome: FailedOutcome, card: CardForm) => {
      if (!step) return;
      // Logging must never hide the modal from the patient.
      call(patientEndpoints.logPaymentResponse, {
        params: { linkId },
        body: { linkStepId: step.linkStepId, payload: paymentLogPayload(outcome, { cardNumber: card.CardNumber }) },
      }).catch(() => undefined);
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

  /**
   * Follows another browser's payment until it ends: true when it ended without a payment (this page may pay now);
   * false when the page was sent elsewhere (the link completed) or an error is shown.
   */
  const followOtherPayment = useCallback(async (): Promise<boolean> => {
    setOtherPayment('in_progress');
    for (let poll = 0; poll < OTHER_PAYMENT_MAX_POLLS && mounted.current; poll++) {
      await new Promise((r) => setTimeout(r, OTHER_PAYMENT_POLL_MS));
      if (!mounted.current) return false;
      try {
        const state = await call(patientEndpoints.paymentState);
        if (!state.inProgress) {
          setOtherPayment('ended');
          return true;
        }
      } catch (e) {
        if (e instanceof NetworkError) continue; // a phone losing the network for a moment: ask again
        setOtherPayment(null);
        const shown = fail(e); // 401 'Process has completed.' → the steps-complete page
        if (shown) setError(shown);
        return false;
      }
    }
    // Still under way after the longest a token lives: PAY NOW asks the server again.
    setOtherPayment(null);
    return true;
  }, [fail]);

  const submit = useCallback(
    async (card: CardForm) => {
      if (lock.current) return;
      lock.current = true;
      setSubmitting(true);
      setOtherPayment(null);
      const amountCents = dollarsToCents(amountDollars);
      try {
        if (beforePay && !(await beforePay())) {
          release();
          return;
        }
        let sessionToken = '';
        for (let poll = 0; ; poll++) {
          try {
            sessionToken = await call(patientEndpoints.paymentSession, {
              query: { amount: centsToDecimalString(amountCents) },
              responseType: 'text',
            });
            break;
          } catch (e) {
            // An earlier payment's outcome is not known yet: wait for it, never pay twice.
            if (e instanceof ApiError && e.code === 'payment_checking' && poll < CHECKING_MAX_POLLS) {
              setChecking(true);
              await new Promise((r) => setTimeout(r, CHECKING_POLL_MS));
              continue;
            }
            setChecking(false);
            throw e;
          }
        }
        setChecking(false);
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
        if (e instanceof ApiError && e.code === 'payment_in_progress') {
          // Another browser is paying this link: wait for its result, never share its token.
          if (await followOtherPayment()) release();
          return;
        }
        // Our server refused or could not be reached before anything was charged.
        const shown = fail(e);
        if (shown) setError(shown);
        release();
      }
    },
    [amountDollars, gatewayAttempt, recordApproval, logFailure, fail, navigate, release, followOtherPayment, beforePay],
  );

  return { submit, submitting, failure, closeModal, error, checking, otherPayment };
}
