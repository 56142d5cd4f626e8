import { useTranslation } from 'react-i18next';

const STATE_CLASS: Record<string, string> = {
  active: 'text-bg-primary',
  completed: 'text-bg-success',
  expired: 'text-bg-secondary',
  cancelled: 'text-bg-danger',
};

/** A link's state as a badge with words (colour is never the only signal). */
export function StateBadge(props: { state: string }) {
  const { t } = useTranslation();
  return <span className={`badge ${STATE_CLASS[props.state] ?? 'text-bg-light'}`}>{t(`states.${props.state}`)}</span>;
}

/** The label of a step key (patientInfo … confirmation, not_started, done). */
export function useStepLabel(): (key: string) => string {
  const { t, i18n } = useTranslation();
  return (key) => (i18n.exists(`steps.${key}`) ? t(`steps.${key}`) : key);
}
