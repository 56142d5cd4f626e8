import { useQuery } from '@tanstack/react-query';
import { buildUrl, call } from '../../shared/api/client';
import { consoleEndpoints } from '../../shared/api/contract';

/** One key per dialog opening: a retry or double click of the same refund never gives money back twice. */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return `console-${crypto.randomUUID()}`;
  const b = crypto.getRandomValues(new Uint8Array(16));
  return `console-${Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('')}`;
}

export function refundLink(linkId: string, body: { amount?: number; reason: string }, key: string) {
  return call(consoleEndpoints.refund, {
    params: { id: linkId },
    body,
    headers: { 'Idempotency-Key': key },
  });
}

/** Whether the sale has settled (a part may be refunded) or can only be voided in full today; asked as the dialog opens. */
export function useRefundOptions(linkId: string, enabled: boolean) {
  return useQuery({
    queryKey: ['link', linkId, 'refund-options'],
    queryFn: ({ signal }) => call(consoleEndpoints.refundOptions, { params: { id: linkId }, signal }),
    enabled,
    staleTime: 0,
    retry: false,
  });
}

export function useLinkRefunds(linkId: string, enabled: boolean) {
  return useQuery({
    queryKey: ['link', linkId, 'refunds'],
    queryFn: ({ signal }) => call(consoleEndpoints.refunds, { params: { id: linkId }, signal }),
    enabled,
  });
}

export function useFlaggedApprovals() {
  return useQuery({
    queryKey: ['payments', 'attention'],
    queryFn: ({ signal }) => call(consoleEndpoints.flaggedApprovals, { signal }),
  });
}

export function voidFlaggedApproval(attemptId: string, reason: string, key: string) {
  return call(consoleEndpoints.voidFlaggedApproval, {
    params: { attemptId },
    body: { reason },
    headers: { 'Idempotency-Key': key },
  });
}

export const evidenceUrl = (linkId: string, lang: string) =>
  buildUrl(`/api/admin/links/${encodeURIComponent(linkId)}/evidence.pdf`, { lang: lang === 'es' ? 'es' : 'en' });

export const exportUrl = (name: 'payments' | 'refunds' | 'links', from: string, to: string) =>
  buildUrl(`/api/admin/exports/${name}.csv`, { from, to });
