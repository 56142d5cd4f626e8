import { useTranslation } from 'react-i18next';
import { LANGUAGES } from '../i18n';

const LABELS = { en: { short: 'EN', name: 'English' }, es: { short: 'ES', name: 'Español' } } as const;

/** EN / ES buttons (same look as the patient app's). */
export function LanguageSwitch(props: { className?: string }) {
  const { t, i18n } = useTranslation();
  const current = i18n.resolvedLanguage ?? i18n.language;
  return (
    <div className={`btn-group ${props.className ?? ''}`} role="group" aria-label={t('layout.language')}>
      {LANGUAGES.map((lng) => (
        <button
          key={lng}
          type="button"
          lang={lng}
          className={`btn btn-sm ${current === lng ? 'btn-light' : 'btn-outline-light'}`}
          aria-pressed={current === lng}
          aria-label={LABELS[lng].name}
          onClick={() => void i18n.changeLanguage(lng)}
        >
          {LABELS[lng].short}
        </button>
      ))}
    </div>
  );
}
