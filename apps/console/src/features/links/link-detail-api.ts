import { useQuery } from '@tanstack/react-query';
import { ApiError, buildUrl, call, NetworkError } from '../../shared/api/client';
import { consoleEndpoints, type LinkDocument } from '../../shared/api/contract';

export type { LinkDocument };

/** Live: refetched when /board/changes names this link (useLiveUpdates), not on a timer, so reads stay audited once. */
export function useLinkDetail(id: string) {
  return useQuery({
    queryKey: ['link', id, 'detail'],
    queryFn: ({ signal }) => call(consoleEndpoints.linkDetail, { params: { id }, signal, background: true }),
  });
}

export function useLinkDocuments(id: string) {
  return useQuery({
    queryKey: ['link', id, 'documents'],
    queryFn: ({ signal }) => call(consoleEndpoints.linkDocuments, { params: { id }, signal, background: true }),
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
