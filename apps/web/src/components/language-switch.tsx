import { LANGUAGES, useTranslation } from '../i18n';

const LABELS: Record<(typeof LANGUAGES)[number], { short: string; name: string }> = {
  en: { short: 'EN', name: 'English' },
  es: { short: 'ES', name: 'Español' },
};

/** EN / ES buttons on every page; src/i18n caches the choice in local storage and a cookie. */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  const current = i18n.resolvedLanguage ?? i18n.language;
  return (
    <div className="btn-group language-switch" role="group" aria-label={t('layout.language')}>
      {LANGUAGES.map((lng) => (
        <button
          key={lng}
          type="button"
          lang={lng}
          className={`btn btn-sm ${current === lng ? 'btn-primary' : 'btn-outline-primary'}`}
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
