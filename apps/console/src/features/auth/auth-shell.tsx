import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageSwitch } from '../../shared/components/language-switch';

/** The frame of the screens outside the console's navigation: sign-in, forgot password, a required new password. */
export function AuthShell(props: { children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className="sign-in-shell">
      <header className="console-navbar d-flex align-items-center justify-content-between px-3 py-2">
        <span className="navbar-brand text-white fw-semibold">{t('layout.brand')}</span>
        <LanguageSwitch />
      </header>
      <main id="main" className="container py-4 sign-in-main">
        <div className="card shadow-sm">
          <div className="card-body p-4">{props.children}</div>
        </div>
      </main>
    </div>
  );
}
