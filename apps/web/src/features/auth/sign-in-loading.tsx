/**
 * The sign-in page while the options and the masked phone load, once the method is known (from /auth's HTML,
 * decision 0185, or from the options answer): the method's heading and instruction, and a spinner. index.html's
 * frame paints the same screen before the JavaScript (boot-shell.ts), so React takes over without a change; when the
 * server wrote the whole first screen with its form (first-screen.ts), nothing: that screen stays until the form.
 */
import type { SignInMethod } from '@paylink/shared';
import { useTranslation } from '../../i18n';
import { PageLayout } from '../../components/page-layout';
import { Spinner } from '../../components/spinner';
import { firstScreenElement } from '../../first-screen';

export function SignInLoading(props: { method: SignInMethod }) {
  const { t } = useTranslation();
  const sms = props.method === 'sms';
  // The server's first screen shows the form already (decision 0226): it stays until the form's PageLayout replaces
  // it, instead of giving way to a spinner and coming back.
  if (firstScreenElement()) return null;
  return (
    <PageLayout title={t(sms ? 'auth.phoneTitle' : 'auth.emailTitle')}>
      <div className="card-panel">
        <p>{t(sms ? 'auth.phoneInstruction' : 'auth.emailInstruction')}</p>
        <div className="d-flex justify-content-center py-3">
          <Spinner />
        </div>
      </div>
    </PageLayout>
  );
}
