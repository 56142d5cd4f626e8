/**
 * The error pages of spec section 8: each is a single title (the spec's exact texts, translated), plus a line on
 * what to do next and the practice's contact details in the footer.
 */
import { useLocation } from '../../lib/router';
import { useTranslation } from '../../i18n';
import { MessagePage } from '../../components/message-page';
import { PlanToCome } from '../../components/plan-to-come';

export function NotFoundPage() {
  const { t } = useTranslation();
  const state = useLocation().state as { reason?: 'network' | 'exception' } | null;
  const reason = state?.reason;
  return (
    <MessagePage
      titleKey="errors.notFoundTitle"
      hintKey={
        reason === 'network'
          ? 'errors.networkHint'
          : reason === 'exception'
            ? 'errors.exceptionHint'
            : 'errors.notFoundHint'
      }
    >
      {reason && (
        <button type="button" className="btn btn-primary" onClick={() => window.history.back()}>
          {t('errors.tryAgain')}
        </button>
      )}
    </MessagePage>
  );
}
export const LinkExpiredPage = () => <MessagePage titleKey="errors.linkExpiredTitle" />;
export const LinkCancelledPage = () => <MessagePage titleKey="errors.linkCancelledTitle" />;
// A returning patient whose plan still has charges to come sees them here (decision 0215).
export const StepsCompletePage = () => (
  <MessagePage titleKey="errors.stepsCompleteTitle">
    <PlanToCome />
  </MessagePage>
);
export const ForbiddenPage = () => <MessagePage titleKey="errors.forbiddenTitle" hintKey="errors.forbiddenHint" />;
// Reached when the card was approved but the approval could not be recorded yet: never say nothing was charged.
export const PaymentErrorPage = () => (
  <MessagePage titleKey="errors.paymentErrorTitle" hintKey="errors.paymentUnconfirmedHint" />
);
export const UnauthorizedPage = () => <MessagePage titleKey="error401Title" hintKey="errors.notAuthorizedHint" />;
