import type { AuditEvent, AuditStatement } from '../../lib/audit.js';
import { webhookEventCtes, type WebhookEventType } from '../../messages/emit-event.js';

const pick = (d: Record<string, unknown> | undefined, keys: string[]) =>
  Object.fromEntries(keys.filter((k) => d?.[k] !== undefined).map((k) => [k, d![k]]));

/**
 * Which audit actions are webhook events, and what they may say. The audit row is written in the transaction of the
 * change, so the event commits with it (or not at all). Only ids, states and money facts leave: never names, contact
 * details or the procedure.
 */
function eventFor(e: AuditEvent): { type: WebhookEventType; data: Record<string, unknown> } | null {
  const d = e.details;
  switch (e.action) {
    case 'link.created':
      return { type: 'link.created', data: pick(d, ['signInMethod', 'expiresAt']) };
    case 'link.sent':
      return { type: 'link.sent', data: pick(d, ['channel', 'outboxId']) };
    case 'auth.sms.verified':
    case 'auth.email.verified':
      return { type: 'link.opened', data: { method: e.action.split('.')[1] } };
    case 'step.updated':
      if (d?.to === 4 && d?.from !== 4) return { type: 'step.completed', data: pick(d, ['linkStepId', 'routePath']) };
      return null;
    case 'step.completed':
      return { type: 'step.completed', data: pick(d, ['linkStepId', 'routePath']) };
    case 'payment.approved':
      return {
        type: 'payment.approved',
        data: {
          ...pick(d, ['transactionId', 'cardBrand', 'cardLast4']),
          ...(typeof d?.amountCents === 'number' ? { amount: d.amountCents / 100 } : {}),
        },
      };
    case 'payment.second_payment_refused':
    case 'payment.needs_attention':
    case 'payment.reconciliation_flagged':
      return {
        type: 'payment.needs_attention',
        data: { reason: e.action, ...pick(d, ['transactionId', 'recordedTransactionId', 'flagId']) },
      };
    case 'link.cancelled':
      return { type: 'link.cancelled', data: {} };
    case 'link.expired':
      return { type: 'link.expired', data: {} };
    default:
      return null;
  }
}

/** The audit row's webhook event, as CTEs of the statement that writes the row (one statement, issue 30). */
export function emitWebhookForAudit(e: AuditEvent, st: AuditStatement): void {
  const ev = eventFor(e);
  if (ev) webhookEventCtes(st, ev.type, { linkId: e.linkId ?? null, ...ev.data });
}
