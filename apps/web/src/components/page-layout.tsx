/**
 * The frame of every page. Fixed interface: <PageLayout title={string} showProgress?={boolean}>{children}</PageLayout>
 * - header: the practice's logo and name (from /api/config) and the EN/ES language switch;
 * - <main id="main">: the progress bar when showProgress, then the page heading <h1>{title}</h1>, then children;
 * - focus moves to the h1 whenever the route changes (screen readers announce the new page); document.title follows;
 * - footer: the practice's support phone and e-mail.
 * The first one mounted removes index.html's frame of the first screen (decision 0184), or the server's first screen
 * (decision 0226), before the browser paints; a field of that screen with the focus passes it to this page's field.
 */
import { useContext, useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { FIRST_SCREEN_FIELD_ATTR, formatPhoneNumber } from '@paylink/shared';
import { useLocation } from '../lib/router';
import { useTranslation } from '../i18n';
import { AppConfigContext } from '../lib/app-config';
import { LanguageSwitch } from './language-switch';
import { ProgressBar } from './progress-bar';
import { bootShellElement } from '../boot-shell';
import { firstScreenFocus } from '../first-screen';

export function PageLayout(props: { title: string; showProgress?: boolean; children?: ReactNode }) {
  const { t } = useTranslation();
  const config = useContext(AppConfigContext);
  const practice = config?.practice;
  const location = useLocation();
  const heading = useRef<HTMLHeadingElement>(null);

  // The field of the server's first screen a patient was in before the app took over (decision 0226), read while
  // that screen is still there: the same field of this page gets the focus, not the heading.
  const [carriedFocus] = useState(firstScreenFocus);
  const main = useRef<HTMLElement>(null);

  useLayoutEffect(() => {
    bootShellElement()?.remove();
    if (!carriedFocus) return;
    const input = main.current?.querySelector<HTMLInputElement>(`[${FIRST_SCREEN_FIELD_ATTR}="${carriedFocus}"]`);
    input?.focus();
    try {
      input?.setSelectionRange(input.value.length, input.value.length); // the caret after what was typed
    } catch {
      // type=email has no selection API; its caret is where the browser puts it
    }
  }, [carriedFocus]);

  const firstFocus = useRef(true);
  useEffect(() => {
    const carried = firstFocus.current && carriedFocus;
    firstFocus.current = false;
    if (!carried) heading.current?.focus({ preventScroll: false });
  }, [location.key, carriedFocus]);

  useEffect(() => {
    document.title = practice?.name ? `${props.title} · ${practice.name}` : props.title;
  }, [props.title, practice?.name]);

  return (
    <div className="app-shell">
      <a className="skip-link" href="#main">
        {t('layout.skipToContent')}
      </a>
      <header className="app-header">
        <div className="app-header-inner">
          <div className="practice">
            {practice?.logoUrl ? (
              <img className="practice-logo" src={practice.logoUrl} alt="" width={40} height={40} />
            ) : (
              <span className="practice-monogram" aria-hidden="true">
                {(practice?.name ?? 'P').slice(0, 1)}
              </span>
            )}
            <span className="practice-name">{practice?.name ?? '\u00a0'}</span>
          </div>
          <LanguageSwitch />
        </div>
      </header>
      <main id="main" className="app-main" ref={main}>
        {props.showProgress && <ProgressBar />}
        <h1 ref={heading} tabIndex={-1} className="page-title">
          {props.title}
        </h1>
        {props.children}
      </main>
      <footer className="app-footer">
        {practice && (practice.supportPhone || practice.supportEmail) && (
          <p className="mb-1">
            {t('layout.help')}{' '}
            {practice.supportPhone && (
              <a href={`tel:${practice.supportPhone.replace(/[^\d+]/g, '')}`}>
                {formatPhoneNumber(practice.supportPhone)}
              </a>
            )}
            {practice.supportPhone && practice.supportEmail && ' · '}
            {practice.supportEmail && <a href={`mailto:${practice.supportEmail}`}>{practice.supportEmail}</a>}
          </p>
        )}
        <p className="mb-0 secure-note">
          <svg width="14" height="14" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
            <path
              fill="currentColor"
              d="M8 1a3.5 3.5 0 0 0-3.5 3.5V7H4a1 1 0 0 0-1 1v6a1 1 0 0 0 1 1h8a1 1 0 0 0 1-1V8a1 1 0 0 0-1-1h-.5V4.5A3.5 3.5 0 0 0 8 1Zm-2 6V4.5a2 2 0 1 1 4 0V7H6Z"
            />
          </svg>
          {t('layout.secure')}
        </p>
      </footer>
    </div>
  );
}
