import { useTranslation } from '../i18n';

/** A Bootstrap spinner with a spoken label ('Loading...' by default). */
export function Spinner(props: { label?: string; small?: boolean; className?: string }) {
  const { t } = useTranslation();
  return (
    <span
      className={`spinner-border ${props.small ? 'spinner-border-sm' : ''} ${props.className ?? ''}`}
      role="status"
      aria-live="polite"
    >
      <span className="visually-hidden">{props.label ?? t('loading')}</span>
    </span>
  );
}

/** A spinner inside a button: hidden from assistive technology so the button keeps its name (it gets aria-busy). */
export function ButtonSpinner() {
  return <span className="spinner-border spinner-border-sm me-2" aria-hidden="true" />;
}
