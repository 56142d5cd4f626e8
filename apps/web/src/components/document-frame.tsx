/**
 * The signing service's page for one document, embedded (spec screens 3-6). The frame carries a title for screen
 * readers, shows a spinner until it has loaded, and takes the app's language. Height: the contract's 575 px and the
 * payment authorisation's 400 px are the spec's; the other documents use a responsive height (decision 0032).
 *
 * On narrow screens (issue 16, item 1; decision 0167) the frame takes the height its page reports, so the page is the
 * only scroll; the page may ask to cover the screen (signature pad, reading mode) and to scroll the app to a point
 * of the document ("Jump to signature"). Layout messages count only from the signing origin and this frame.
 */
import { forwardRef, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { useTranslation } from '../i18n';
import { Spinner } from './spinner';
import { useAppConfig } from '../lib/app-config';
import { documentSrc } from '../lib/use-signing-message';
import './document-frame.css';

/** Where the spec's fixed heights give way to the frame's content height (one scroll on phones). */
const FIT_CONTENT_QUERY = '(max-width: 767.98px)';

export interface DocumentFrameProps {
  documentUrl: string;
  title: string;
  /** A CSS length: 575 for the contract, 400 for the payment authorisation, else a responsive height. */
  height: number | string;
}

function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const m = window.matchMedia?.(query);
      m?.addEventListener('change', onChange);
      return () => m?.removeEventListener('change', onChange);
    },
    () => window.matchMedia?.(query).matches ?? false,
    () => false,
  );
}

export const DocumentFrame = forwardRef<HTMLIFrameElement, DocumentFrameProps>(function DocumentFrame(props, ref) {
  const { i18n } = useTranslation();
  const { signOrigin } = useAppConfig();
  const [loaded, setLoaded] = useState(false);
  const [contentHeight, setContentHeight] = useState<number | null>(null);
  const [overlay, setOverlay] = useState(false);
  const wrapRef = useRef<HTMLDivElement>(null);
  const narrow = useMediaQuery(FIT_CONTENT_QUERY);
  const src = documentSrc(props.documentUrl, i18n.resolvedLanguage ?? i18n.language);
  const fit = narrow && !overlay && contentHeight !== null;

  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      const frame = wrapRef.current?.querySelector('iframe');
      if (!signOrigin || event.origin !== signOrigin || !frame || event.source !== frame.contentWindow) return;
      const data = event.data as { action?: unknown; height?: unknown; on?: unknown; top?: unknown } | null;
      if (!data || typeof data !== 'object') return;
      if (data.action === 'frame-height' && typeof data.height === 'number' && Number.isFinite(data.height)) {
        setContentHeight(Math.min(Math.max(Math.round(data.height), 200), 30_000));
      } else if (data.action === 'overlay') {
        setOverlay(data.on === true);
      } else if (data.action === 'scroll-to' && typeof data.top === 'number' && Number.isFinite(data.top)) {
        // Only when the frame is as tall as its page; otherwise the page scrolled itself.
        if (!window.matchMedia?.(FIT_CONTENT_QUERY).matches) return;
        const top = wrapRef.current!.getBoundingClientRect().top + window.scrollY + Math.max(0, data.top) - 8;
        window.scrollTo({ top, behavior: 'instant' });
      }
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [signOrigin]);

  // A frame over the whole screen: the page behind it must not scroll.
  useEffect(() => {
    document.documentElement.classList.toggle('document-overlay-open', overlay);
    return () => document.documentElement.classList.remove('document-overlay-open');
  }, [overlay]);

  return (
    <div
      ref={wrapRef}
      className={`document-frame-wrap${overlay ? ' document-frame-overlay' : ''}${fit ? ' document-frame-fit' : ''}`}
      style={overlay ? undefined : { height: fit ? contentHeight : props.height }}
      aria-busy={!loaded}
    >
      {!loaded && (
        <div className="document-frame-loading">
          <Spinner />
        </div>
      )}
      <iframe
        ref={ref}
        key={src}
        src={src}
        title={props.title}
        className="document-frame"
        allow="camera; fullscreen"
        scrolling={fit ? 'no' : undefined}
        onLoad={() => setLoaded(true)}
      />
    </div>
  );
});
