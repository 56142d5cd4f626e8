import { useTranslation } from 'react-i18next';
import { ApiError } from '../../shared/api/client';
import { useErrorMessage } from '../../shared/components/query-state';

/**
 * Money errors say exactly what happened at the gateway (refused, unavailable, outcome unknown), in the console's
 * language: known error codes have their own text (money.errors.<code>); others fall back to the shared messages.
 */
export function useMoneyError(): (error: unknown) => string {
  const { t, i18n } = useTranslation();
  const generic = useErrorMessage();
  return (error) => {
    if (error instanceof ApiError && error.code && i18n.exists(`money.errors.${error.code}`)) {
      return t(`money.errors.${error.code}`);
    }
    return generic(error);
  };
}
