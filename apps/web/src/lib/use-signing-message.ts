/**
 * The signing frame's completion message (spec section 4; CONTRACTS.md "Documents"): the signing page posts
 * `{ action: 'submission-completed', formID }` to its parent after the server recorded completion. Only messages
 * whose origin is exactly the signing origin from /api/config count, and, when the frame is known, only from that
 * frame's window: a message from any other origin or window is ignored.
 */
import { useEffect, useState, type RefObject } from 'react';

const SUBMISSION_COMPLETED = 'submission-completed';

export function isSigningCompletedMessage(
  event: Pick<MessageEvent, 'origin' | 'data' | 'source'>,
  signOrigin: string,
  frameWindow?: Window | null,
): boolean {
  if (!signOrigin || event.origin !== signOrigin) return false;
  if (frameWindow && event.source !== frameWindow) return false;
  const data: unknown = event.data;
  return typeof data === 'object' && data !== null && (data as { action?: unknown }).action === SUBMISSION_COMPLETED;
}

export function useSigningMessage(opts: {
  signOrigin: string;
  frameRef?: RefObject<HTMLIFrameElement | null>;
  /** Reset when the document changes (another step's frame). */
  documentUrl?: string | null;
}): { signed: boolean; formId: string | null } {
  const { signOrigin, frameRef, documentUrl } = opts;
  const [state, setState] = useState<{ url: string | null | undefined; formId: string | null } | null>(null);

  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      if (!isSigningCompletedMessage(event, signOrigin, frameRef?.current?.contentWindow)) return;
      const formId = (event.data as { formID?: unknown }).formID;
      setState({ url: documentUrl, formId: typeof formId === 'string' ? formId : null });
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [signOrigin, frameRef, documentUrl]);

  const signed = state !== null && state.url === documentUrl;
  return { signed, formId: signed ? state.formId : null };
}

/** The frame's address with the app's language (the signing pages follow it), unless the URL already names one. */
export function documentSrc(documentUrl: string, lng: string): string {
  try {
    const url = new URL(documentUrl);
    if (!url.searchParams.has('lng') && (lng === 'en' || lng === 'es')) url.searchParams.set('lng', lng);
    return url.toString();
  } catch {
    return documentUrl;
  }
}
