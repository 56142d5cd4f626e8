import { useEffect, useRef } from 'react';
import { useTranslation } from '../../i18n';

/**
 * The red sign-in alert: the translated sentence, then the code in parentheses for support (spec section 8).
 * The code is hidden from screen readers, which would spell "auth slash too dash many…" out (issue 29, item 10).
 * On a phone the alert sits below the fold, under the code form: it scrolls itself into view when it appears.
 */
export function AuthErrorAlert(props: { code: string; id?: string }) {
  const { t } = useTranslation();
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // `nearest` leaves the page still when the alert is already visible (desktop); jsdom has no scrollIntoView.
    box.current?.scrollIntoView?.({ block: 'nearest' });
  }, [props.code]);
  const message = t(`auth.errors.${props.code}`, { defaultValue: t('auth.errors.default') });
  return (
    <div ref={box} id={props.id} className="alert alert-danger" role="alert">
      {message} <span aria-hidden="true">({props.code})</span>
    </div>
  );
}
