import { useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { copyText } from '../lib/copy-text';

/**
 * A secret the server answers once (a webhook's signing secret, a temporary password): shown until dismissed, with a
 * copy button, never again. A status region, so a screen reader announces it when it appears.
 */
export function ShownOnceSecret(props: {
  title: ReactNode;
  help: string;
  secret: string;
  copyLabel?: string;
  closeLabel: string;
  onClose: () => void;
  testId?: string;
  secretTestId?: string;
}) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  const headingId = useId();
  return (
    <div className="alert alert-warning" role="status" aria-labelledby={headingId} data-testid={props.testId}>
      <h2 id={headingId} className="h6">
        {props.title}
      </h2>
      <p className="mb-2">{props.help}</p>
      <p className="mb-2">
        <code
          className="fs-6 text-break user-select-all text-dark bg-white border rounded px-2 py-1"
          data-testid={props.secretTestId}
        >
          {props.secret}
        </code>
      </p>
      <div className="d-flex flex-wrap gap-2">
        <button
          type="button"
          className="btn btn-sm btn-outline-dark"
          onClick={() => void copyText(props.secret).then(setCopied)}
        >
          {copied ? t('common.copied') : (props.copyLabel ?? t('common.copy'))}
        </button>
        <button type="button" className="btn btn-sm btn-dark" onClick={props.onClose}>
          {props.closeLabel}
        </button>
      </div>
    </div>
  );
}
