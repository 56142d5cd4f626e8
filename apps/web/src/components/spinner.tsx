import { useTranslation } from 'react-i18next';

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
