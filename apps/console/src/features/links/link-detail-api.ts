import { useQuery } from '@tanstack/react-query';
import { api, ApiError, buildUrl, NetworkError } from '../../shared/api/client';
import type { ConsoleLinkDetail } from '../../shared/api/contract';

export interface LinkDocument {
  submissionId: string;
  kind: 'invoice' | 'contract' | 'patient_id' | 'payor_id' | 'payment_authorization';
  status: 'pending' | 'completed';
  signerName: string | null;
  completedAt: string | null;
  pdfUrl: string | null;
}

/** Live: refetched when /board/changes names this link (useLiveUpdates), not on a timer, so reads stay audited once. */
export function useLinkDetail(id: string) {
  return useQuery({
    queryKey: ['link', id, 'detail'],
    queryFn: ({ signal }) =>
      api.get<ConsoleLinkDetail>(`/api/admin/links/${encodeURIComponent(id)}/detail`, { signal, background: true }),
  });
}

export function useLinkDocuments(id: string) {
  return useQuery({
    queryKey: ['link', id, 'documents'],
    queryFn: ({ signal }) =>
      api.get<LinkDocument[]>(`/api/admin/links/${encodeURIComponent(id)}/documents`, { signal, background: true }),
  });
}

/** The signed PDF as a blob (same-origin, with the session cookie). */
export async function fetchPdf(pdfUrl: string): Promise<Blob> {
  let res: Response;
  try {
    res = await fetch(buildUrl(pdfUrl), { credentials: 'same-origin' });
  } catch {
    throw new NetworkError('network');
  }
  if (!res.ok) throw new ApiError(res.status, await res.json().catch(() => null));
  return res.blob();
}
