/**
 * The signing service's page for one document, embedded (spec screens 3-6). The frame carries a title for screen
 * readers, shows a spinner until it has loaded, and takes the app's language. Height: the contract's 575 px and the
 * payment authorisation's 400 px are the spec's; the other documents use a responsive height (decision 0032).
 */
import { useState, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from './spinner';
import { documentSrc } from '../lib/use-signing-message';
import './document-frame.css';

export interface DocumentFrameProps {
  documentUrl: string;
  title: string;
  /** A CSS length: 575 for the contract, 400 for the payment authorisation, else a responsive height. */
  height: number | string;
  ref?: Ref<HTMLIFrameElement>;
}

export function DocumentFrame({ ref, ...props }: DocumentFrameProps) {
  const { i18n } = useTranslation();
  const [loaded, setLoaded] = useState(false);
  const src = documentSrc(props.documentUrl, i18n.resolvedLanguage ?? i18n.language);
  return (
    <div className="document-frame-wrap" style={{ height: props.height }} aria-busy={!loaded}>
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
        onLoad={() => setLoaded(true)}
      />
    </div>
  );
}
